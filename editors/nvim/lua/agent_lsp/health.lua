-- :checkhealth agent_lsp — the binary, its version, the provider key, and
-- whether the running daemons answer.
local config = require('agent_lsp.config')
local daemon = require('agent_lsp.daemon')
local compat = require('agent_lsp.compat')
local completion = require('agent_lsp.completion')

local M = {}

function M.check()
  local report = compat.health()
  local opts = config.options
  report.start('agent-lsp')

  local binary = opts.cmd[1]
  local path = vim.fn.exepath(binary)
  if path == '' then
    report.error('the daemon ' .. binary .. ' was not found', {
      'Install it: go install github.com/agent-lsp/agent-lsp/cmd/agent-lsp@latest',
      'or set cmd = { "/path/to/agent-lsp" } in require("agent_lsp").setup()',
    })
  else
    report.ok('binary: ' .. path)
    local out = vim.fn.system({ path, 'version' })
    if vim.v.shell_error == 0 then
      report.ok('version: ' .. vim.trim(out))
    else
      report.error('`' .. binary .. ' version` failed: ' .. vim.trim(out))
    end
  end

  local key = config.api_key_variable(opts)
  if key == 'none' then
    report.ok('provider key: none needed (api_key_env = "none")')
  elseif (os.getenv(key) or '') ~= '' then
    report.ok('provider key: $' .. key .. ' is set')
  else
    report.warn('provider key: $' .. key .. ' is not set', {
      'export ' .. key .. '=… before starting Neovim, or set api_key_env in setup()',
    })
  end

  local any = false
  local clients = {}
  for root, st in pairs(daemon.states()) do
    local client = daemon.client(st)
    if client then
      any = true
      table.insert(clients, { root = root, client = client })
      local result = compat.request_sync(client, 'agent/tools', vim.empty_dict(), 3000)
      if result and result.result then
        report.ok(
          string.format(
            'daemon for %s (pid %s) answers: %d tools',
            root,
            tostring(st.pid),
            #(compat.tbl(result.result.tools))
          )
        )
      else
        report.error(
          string.format(
            'daemon for %s (pid %s) does not answer agent/tools: %s',
            root,
            tostring(st.pid),
            tostring(result and result.err and result.err.message or 'no answer')
          )
        )
      end
    end
  end
  if not any then
    report.info('no daemon running: one starts on the first :AgentChat, :AgentAsk or :AgentInline')
  end
  completion.health(report, clients)
end

return M
