-- What each root's agent-lsp client is given (daemon.configure): the
-- handlers of the daemon's requests and notifications, the on_attach of
-- its file buffers, and what follows its start and its crash. These are
-- the client's own: other language servers keep Neovim's handlers.
local approval = require('agent_lsp.approval')
local completion = require('agent_lsp.completion')
local control = require('agent_lsp.control')
local edits = require('agent_lsp.edits')
local prompt = require('agent_lsp.prompt')
local review = require('agent_lsp.review')

local M = {}

---The handlers of a root's client (the client config's `handlers`).
---@param st agent_lsp.State
---@return table<string, function>
function M.handlers(st)
  return {
    ['agent/update'] = function(_, params)
      prompt.on_update(st, params)
    end,
    ['$/progress'] = function(err, params, ctx, cfg)
      -- Neovim's own handler first (it feeds vim.lsp.status()), by name:
      -- the global table is read, never replaced.
      pcall(vim.lsp.handlers['$/progress'], err, params, ctx, cfg)
      prompt.on_progress(st, params)
    end,
    ['agent/approve'] = approval.approve,
    ['window/showMessageRequest'] = approval.show_message_request,
    ['agent/review'] = review.handle,
    ['workspace/applyEdit'] = edits.apply_edit,
    ['agent/completionStatus'] = function(_, params)
      completion.on_status(st, params)
    end,
  }
end

---The callbacks of every root's client.
---@type agent_lsp.ClientCallbacks
M.callbacks = {
  handlers = M.handlers,
  on_attach = completion.attach,
  on_ready = function(st)
    control.fetch_commands(st, nil, true)
    control.fetch_models(st, nil, true)
  end,
  on_crash = prompt.on_crash,
}

return M
