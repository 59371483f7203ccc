-- A hostile project: its .nvim.lua, .exrc and an executable named
-- agent-lsp at its root would each pick the daemon binary or the model's
-- endpoint. The plugin, set up with the bare name 'agent-lsp'
-- (config.command) and the user's endpoint, opens a file there and asks
-- config.prompt. Reports how the prompt ended and the daemon's command
-- line as the client holds it.
local H = dofile(os.getenv('E2E_HARNESS'))
local daemon = require('agent_lsp.daemon')

H.run(function()
  local cfg = H.config
  H.setup()
  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.root .. '/main.go'))
  vim.cmd('AgentAsk ' .. cfg.prompt)
  H.report.last = H.wait_prompt_end(20000, 'the prompt to end')
  local client = daemon.client(daemon.state(H.status().root))
  H.report.cmd = client and client.config and client.config.cmd or vim.NIL
end)
