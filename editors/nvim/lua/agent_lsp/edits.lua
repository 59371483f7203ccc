-- workspace/applyEdit for agent-lsp's client: Neovim's own handler, after
-- an undo break in each buffer the edit touches, followed by a write of
-- those buffers when auto_save is on (so commands see the edit).
local config = require('agent_lsp.config')
local compat = require('agent_lsp.compat')

local M = {}

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

---The workspace/applyEdit handler: Neovim's, called by name (the global
---table is read, never replaced); the write runs after the handler has
---answered, so the daemon hears applied first.
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
