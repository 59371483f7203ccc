-- Completion in the chat's prompt line (an 'omnifunc': <C-x><C-o>) and on
-- :AgentAsk's command line (<Tab>): `/` + the slash commands of
-- agent/commands as the prompt's first word, the modes after `/mode`, the
-- presets after `/model`, and `@` + a file or directory of the workspace.
-- The command and preset lists are cached per root and refreshed in the
-- background at each completion (MCP prompts appear as their servers get
-- ready); the first completion before the daemon answered arrives late
-- in the prompt line, and on the next <Tab> on the command line.
local control = require('agent_lsp.control')
local daemon = require('agent_lsp.daemon')
local compat = require('agent_lsp.compat')
local roots = require('agent_lsp.roots')

local M = {}

local max_files = 200

-- files lists the workspace entries whose path (relative to root) starts
-- with prefix, directories with a trailing slash.
local function files(root, prefix)
  local dir, base = prefix:match('^(.*/)([^/]*)$')
  if not dir then
    dir, base = '', prefix
  end
  local paths = vim.fn.globpath(root:gsub(',', '\\,'), dir .. base .. '*', false, true)
  local out = {}
  for _, path in ipairs(paths) do
    if #out >= max_files then
      break
    end
    local rel = path:sub(#root + 2)
    local is_dir = vim.fn.isdirectory(path) == 1
    table.insert(out, { word = '@' .. rel .. (is_dir and '/' or ''), menu = is_dir and 'directory' or 'file' })
  end
  table.sort(out, function(a, b)
    return a.word < b.word
  end)
  return out
end

local function describe_arguments(args)
  local names = {}
  for _, a in ipairs(compat.tbl(args)) do
    table.insert(names, a.required and a.name or ('[' .. a.name .. ']'))
  end
  return table.concat(names, ' ')
end

local function from_commands(commands, word)
  local out = {}
  for _, c in ipairs(commands) do
    if vim.startswith(c.name, word) then
      local args = describe_arguments(c.arguments)
      table.insert(out, {
        word = c.name,
        abbr = args ~= '' and (c.name .. ' ' .. args) or c.name,
        menu = vim.split(compat.str(c.description), '\n', { plain = true })[1],
      })
    end
  end
  return out
end

local function with_prefix(words, word, menu)
  local out = {}
  for i, w in ipairs(words) do
    if vim.startswith(w, word) then
      table.insert(out, { word = w, menu = menu and menu[i] })
    end
  end
  return out
end

-- refresh fetches a list in the background when the daemon runs (or
-- starts it when the list was never fetched), then calls done.
local function refresh(st, list, done)
  if st[list] and not daemon.client(st) then
    return
  end
  local fetch = list == 'commands' and control.fetch_commands or control.fetch_models
  fetch(st, function()
    if done then
      done()
    end
  end, true)
end

-- candidates returns the completion items for word, the word being typed
-- after the text `before` (the prompt so far), and the name of the cached
-- list they come from ('commands', 'models'); the items are nil while that
-- list was never fetched.
function M.candidates(st, before, word)
  local first = vim.trim(before) == ''
  if vim.startswith(word, '@') then
    return files(st.root, word:sub(2))
  elseif first and vim.startswith(word, '/') then
    return st.commands and from_commands(st.commands, word), 'commands'
  elseif before:match('^%s*/mode%s+$') then
    local descriptions = vim.tbl_map(function(m)
      return m.description
    end, control.modes)
    return with_prefix(control.mode_names(), word, descriptions)
  elseif before:match('^%s*/model%s+$') then
    local ids = vim.tbl_map(function(m)
      return m.id
    end, st.models or {})
    return st.models and with_prefix(ids, word), 'models'
  end
  return {}
end

-- Between the omnifunc's two calls: where the word starts and what is
-- before it.
local pending = nil

local function prompt_prefix(buf)
  local ok, prefix = pcall(vim.fn.prompt_getprompt, buf)
  return ok and prefix or ''
end

-- omnifunc is the prompt line's 'omnifunc' (see |complete-functions|).
function M.omnifunc(findstart, base)
  local st = roots.chat_state()
  if findstart ~= 1 then
    if not pending then
      return {}
    end
    return M.candidates(st, pending.before, base) or {}
  end
  pending = nil
  local buf = vim.api.nvim_get_current_buf()
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2]
  local head = line:sub(1, col)
  local prefix = prompt_prefix(buf)
  local offset = vim.startswith(head, prefix) and #prefix or 0
  local text = head:sub(offset + 1)
  local start = text:find('%S*$')
  local before, word = text:sub(1, start - 1), text:sub(start)
  local items, list = M.candidates(st, before, word)
  -- Requests leave the omnifunc first: it runs under 'textlock', and the
  -- daemon may have to be started.
  if items == nil then
    -- Never fetched: complete when the list arrives, if the user is still
    -- typing that word.
    vim.schedule(function()
      refresh(st, list, function()
        if vim.api.nvim_get_current_buf() ~= buf or not vim.startswith(vim.fn.mode(), 'i') then
          return
        end
        local now = vim.api.nvim_get_current_line():sub(1, vim.api.nvim_win_get_cursor(0)[2])
        if now == head then
          vim.fn.complete(offset + start, M.candidates(st, before, word) or {})
        end
      end)
    end)
    return -3
  end
  if list then
    vim.schedule(function()
      refresh(st, list) -- for the next completion
    end)
  end
  pending = { before = before }
  return offset + start - 1
end

-- words completes word after the prompt text before, for a command line.
local function words(before, word)
  local st = roots.chat_state()
  local items, list = M.candidates(st, before, word)
  if list then
    vim.schedule(function()
      refresh(st, list)
    end)
  end
  return vim.tbl_map(function(item)
    return item.word
  end, items or {})
end

-- cmdline completes :AgentAsk's arguments (|:command-completion-customlist|).
function M.cmdline(arglead, cmdline, cursorpos)
  local args = cmdline:sub(1, cursorpos):match('^%s*%a+!?%s+(.*)$') or ''
  return words(args:sub(1, #args - #arglead), arglead)
end

-- models completes :AgentModel's argument: the presets' ids.
function M.models(arglead)
  return words('/model ', arglead)
end

return M
