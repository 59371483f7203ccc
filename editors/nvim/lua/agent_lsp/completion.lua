-- Inline completion (ghost text) from the daemon's completion model:
-- Neovim's native inline completion turned on in the buffers the daemon
-- attaches when it announced inlineCompletionProvider (it does only with
-- the `completion` option), the accept keys, the notice on versions
-- without it, and agent/completionStatus for the status line.
local compat = require('agent_lsp.compat')
local config = require('agent_lsp.config')

local M = {}

-- Said once per Neovim session, not per buffer or daemon.
local told_unsupported = false

-- announced says whether the client's daemon serves inline completion.
function M.announced(client)
  return compat.get(client, 'server_capabilities', 'inlineCompletionProvider') ~= nil
end

-- version is this Neovim's version, as 0.10.4.
local function version()
  local v = vim.version()
  return string.format('%d.%d.%d', v.major, v.minor, v.patch)
end

-- unsupported_reason is why there is no ghost text here, or nil.
function M.unsupported_reason()
  if compat.inline_completion then
    return nil
  end
  return 'inline completion needs Neovim 0.12 (vim.lsp.inline_completion); this is ' .. version()
end

-- word is the start of rest a word accept takes: blank space and then a
-- word (non-ASCII bytes count as letters) or a run of punctuation.
function M.word(rest)
  return rest:match('^%s*[%w_\128-\255]+') or rest:match('^%s*[^%w_%s\128-\255]+') or rest:match('^%s+') or rest
end

-- line is the start of rest a line accept takes: to the end of the
-- cursor's line, or, at its end, the next line too.
function M.line(rest)
  local first = rest:match('^[^\n]+')
  if first then
    return first
  end
  return rest:match('^\n[^\n]*') or rest
end

-- accept_map returns an insert-mode <expr> function: accept (with cut) the
-- suggestion shown, else type key.
local function accept_map(key, cut)
  local fallback = vim.api.nvim_replace_termcodes(key, true, false, true)
  return function()
    if compat.accept_inline_completion(cut) then
      return ''
    end
    return fallback
  end
end

local function set_keymaps(bufnr)
  local keymaps = config.options.keymaps or {}
  local maps = {
    { keymaps.accept_completion, nil, 'accept the suggestion' },
    { keymaps.accept_completion_word, M.word, "accept the suggestion's next word" },
    { keymaps.accept_completion_line, M.line, "accept the suggestion's line" },
  }
  for _, m in ipairs(maps) do
    if m[1] then
      vim.keymap.set('i', m[1], accept_map(m[1], m[2]), {
        buffer = bufnr,
        expr = true,
        replace_keycodes = false,
        desc = 'agent-lsp: ' .. m[3],
      })
    end
  end
end

-- attach runs when bufnr was attached to client: ghost text in it when the
-- daemon serves it and this Neovim can show it, else a notice once.
function M.attach(client, bufnr)
  if not M.announced(client) then
    return
  end
  local reason = M.unsupported_reason()
  if reason then
    if not told_unsupported then
      told_unsupported = true
      -- INFO: it is not an error of the user's setup, and it stays out of
      -- the way (:checkhealth agent_lsp repeats it).
      vim.notify('agent-lsp: ' .. reason .. '; the completion option has no effect', vim.log.levels.INFO)
    end
    return
  end
  if not compat.inline_completion_enabled(bufnr) then
    compat.enable_inline_completion(bufnr)
  end
  set_keymaps(bufnr)
end

-- on_status handles agent/completionStatus {uri, state, message?}.
function M.on_status(st, params)
  params = compat.tbl(params)
  st.completion = { state = compat.str(params.state), message = compat.nonnull(params.message), uri = params.uri }
  vim.cmd('redrawstatus')
end

-- status_text is the status line's part for the root's completion, or nil
-- when there is nothing to say.
function M.status_text(st)
  local c = st and st.completion
  if not c then
    return nil
  end
  if c.state == 'completing' then
    return 'completing…'
  end
  if c.state == 'error' then
    local msg = vim.split(compat.str(c.message, 'failed'), '\n', { plain = true })[1]
    if vim.fn.strchars(msg) > 60 then
      msg = vim.fn.strcharpart(msg, 0, 59) .. '…'
    end
    return 'completion failed: ' .. msg
  end
  return nil
end

-- health adds the completion's lines to :checkhealth agent_lsp.
function M.health(report, clients)
  if config.options.completion == nil then
    report.info('inline completion: off (no completion option in setup())')
    return
  end
  local reason = M.unsupported_reason()
  if reason then
    report.warn('inline completion: ' .. reason, { 'Neovim 0.12 shows ghost text; the chat and the agent work here' })
    return
  end
  report.ok('inline completion: configured (Neovim ' .. version() .. ' shows it natively)')
  for _, c in ipairs(clients) do
    if not M.announced(c.client) then
      report.warn('daemon for ' .. c.root .. ' does not serve inline completion (its log or :messages say why)')
    end
  end
end

return M
