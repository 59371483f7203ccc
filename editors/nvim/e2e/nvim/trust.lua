-- The workspace trust popup, a plain window/showMessageRequest: :AgentChat
-- starts the daemon, which asks about the workspace's .mcp.json entry
-- config.server; the popup is answered with config.answer. Reports the
-- popups (with the floats shown meanwhile) and the entry's agent/mcpStatus
-- once decided.
local H = dofile(os.getenv('E2E_HARNESS'))
local compat = require('agent_lsp.compat')
local daemon = require('agent_lsp.daemon')

H.run(function()
  local cfg = H.config
  H.setup()
  H.answer_approvals(cfg.answer)
  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.root .. '/main.go'))
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  H.wait(20000, function()
    return #H.report.popups > 0
  end, 'the trust popup')

  -- agent/mcpStatus until the entry is decided: trusted and started (or
  -- failed), or denied.
  local st = daemon.state(H.status().root)
  local decided
  local function poll()
    local client = daemon.client(st)
    if not client then
      return
    end
    compat.request(client, 'agent/mcpStatus', vim.empty_dict(), function(_, result)
      for _, s in ipairs(compat.tbl(compat.get(result, 'servers'))) do
        local trusted = s.trust ~= 'untrusted' and s.state ~= 'starting'
        if s.name == cfg.server and (trusted or compat.str(s.reason):find('denied')) then
          decided = s
          return
        end
      end
      vim.defer_fn(poll, 50)
    end)
  end
  poll()
  H.wait(10000, function()
    return decided ~= nil
  end, 'the trust decision in agent/mcpStatus')
  H.report.server = decided
end)
