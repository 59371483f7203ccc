-- Approvals and edits for agent-lsp's client only (other servers keep
-- Neovim's handlers): window/showMessageRequest asks with vim.ui.select,
-- after showing an edit's diff in a floating window; workspace/applyEdit
-- is Neovim's handler, followed by a write of the edited buffers when
-- auto_save is on.
local config = require('agent_lsp.config')
local compat = require('agent_lsp.compat')

local M = {}

-- extract_diff returns the unified diff lines of an approval message
-- (lsp/approver.go: summary line, "--- a/p", "+++ b/p", hunks, maybe
-- "… (N more diff lines)", then "Why RISK: …"), or nil.
function M.extract_diff(message)
  local lines = vim.split(message or '', '\n', { plain = true })
  local first
  for i = 1, #lines - 1 do
    if vim.startswith(lines[i], '--- ') and vim.startswith(lines[i + 1], '+++ ') then
      first = i
      break
    end
  end
  if not first then
    return nil
  end
  local diff = {}
  for i = first, #lines do
    local line = lines[i]
    if i > first + 1 and not line:match('^[ +%-@\\]') and not vim.startswith(line, '…') and line ~= '' then
      break
    end
    table.insert(diff, line)
  end
  return diff
end

-- can_yield: Neovim 0.10+ runs a server request's handler in a coroutine
-- (vim.schedule(coroutine.wrap(...))), so it may yield until the picker
-- answers; 0.7.2 runs it on the main thread, which must block in vim.wait.
-- PUC Lua cannot yield across the pcall around the handler: LuaJIT only.
local function running_coroutine()
  local co, is_main = coroutine.running()
  if co ~= nil and not is_main and jit ~= nil then
    return co
  end
  return nil
end

-- await runs start(done), which calls done(value) once, maybe later (an
-- asynchronous picker or input), and returns that value: it yields when
-- the handler runs in a coroutine, else blocks in vim.wait (Neovim before
-- 0.10). Unanswered within approval_timeout_ms, it returns nil.
function M.await(start)
  local finished, value = false, nil
  local co = running_coroutine()
  local waiting = false
  start(function(v)
    if finished then
      return
    end
    finished, value = true, v
    if waiting and co then
      vim.schedule(function()
        coroutine.resume(co)
      end)
    end
  end)
  if not finished then
    waiting = true
    if co then
      coroutine.yield()
    else
      vim.wait(config.options.approval_timeout_ms, function()
        return finished
      end, 20)
    end
  end
  return value
end

-- ask runs vim.ui.select over the action titles and returns the chosen
-- title or nil.
local function ask(titles, prompt)
  return M.await(function(done)
    vim.ui.select(titles, { prompt = prompt, kind = 'agent_lsp_approval' }, done)
  end)
end

-- show_message_request answers window/showMessageRequest: the chosen
-- MessageActionItem, or vim.NIL (the daemon reads null as Deny).
function M.show_message_request(_, params)
  local actions = compat.tbl(params.actions)
  local titles = vim.tbl_map(function(a)
    return a.title
  end, actions)
  local message = compat.str(params.message)
  local lines = vim.split(message, '\n', { plain = true })
  local diff = M.extract_diff(message)
  local float
  if diff then
    float = (require('agent_lsp.float').open(diff, { filetype = 'diff', title = 'agent-lsp: proposed edit' }))
  elseif #lines > 1 then
    float = (require('agent_lsp.float').open(lines, { filetype = 'text', title = 'agent-lsp: approval' }))
  end
  vim.cmd('redraw')
  local ok, choice = pcall(ask, titles, lines[1])
  if float and vim.api.nvim_win_is_valid(float) then
    vim.api.nvim_win_close(float, true)
  end
  if not ok then
    vim.notify('agent-lsp: approval failed, denying: ' .. tostring(choice), vim.log.levels.WARN)
    return vim.NIL
  end
  for _, action in ipairs(actions) do
    if action.title == choice then
      return action
    end
  end
  return vim.NIL
end

-- edited_uris lists the documents a WorkspaceEdit touches.
local function edited_uris(edit)
  local uris = {}
  for uri in pairs(compat.tbl(edit.changes)) do
    table.insert(uris, uri)
  end
  for _, change in ipairs(compat.tbl(edit.documentChanges)) do
    if change.textDocument and change.textDocument.uri then
      table.insert(uris, change.textDocument.uri)
    elseif change.kind == 'create' and change.uri then
      table.insert(uris, change.uri)
    end
  end
  return uris
end

-- save writes the buffers of uris that have unsaved changes. The write
-- sends didSave (after the pending didChange), which tells the daemon the
-- disk holds the edit.
local function save(uris)
  for _, uri in ipairs(uris) do
    local bufnr = vim.uri_to_bufnr(uri)
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].modified then
      local ok, err = pcall(vim.api.nvim_buf_call, bufnr, function()
        vim.cmd('silent update')
      end)
      if not ok then
        vim.notify('agent-lsp: could not save ' .. vim.uri_to_fname(uri) .. ': ' .. tostring(err), vim.log.levels.WARN)
      end
    end
  end
end

-- break_undo starts a new undo step in each loaded buffer of uris, so |u|
-- takes back exactly one agent edit (or one rewind), never merged with
-- the change before it (API changes with no typing between them share an
-- undo step otherwise). See |undo-break|.
local function break_undo(uris)
  for _, uri in ipairs(uris) do
    local bufnr = vim.uri_to_bufnr(uri)
    if vim.api.nvim_buf_is_loaded(bufnr) then
      pcall(vim.api.nvim_buf_call, bufnr, function()
        vim.cmd('let &l:undolevels = &l:undolevels')
      end)
    end
  end
end

-- apply_edit wraps Neovim's workspace/applyEdit handler; the write runs
-- after the handler has answered, so the daemon hears applied first.
function M.apply_edit(err, params, ctx, cfg)
  if params and params.edit then
    break_undo(edited_uris(params.edit))
  end
  local result = vim.lsp.handlers['workspace/applyEdit'](err, params, ctx, cfg)
  if config.options.auto_save and result and result.applied and params and params.edit then
    local uris = edited_uris(params.edit)
    vim.schedule(function()
      save(uris)
    end)
  end
  return result
end

return M
