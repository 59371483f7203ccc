-- The commands exist before require('agent_lsp').setup() runs: each calls
-- setup({}) (the defaults; a later setup() call with options replaces it)
-- and then runs as typed. Nothing else is loaded until one is used.
if vim.g.loaded_agent_lsp or vim.fn.exists('*nvim_create_user_command') == 0 then
  return
end
vim.g.loaded_agent_lsp = true
if package.loaded['agent_lsp'] and require('agent_lsp').is_setup() then
  return -- setup() ran first (an init.lua with the plugin on 'runtimepath')
end

for _, name in ipairs({
  'AgentChat',
  'AgentAsk',
  'AgentInline',
  'AgentCancel',
  'AgentSessions',
  'AgentRewind',
  'AgentTools',
  'AgentMode',
  'AgentModel',
}) do
  vim.api.nvim_create_user_command(name, function(o)
    local agent = require('agent_lsp')
    if not agent.is_setup() then
      agent.setup({})
    end
    local range = o.range > 0 and (o.line1 .. ',' .. o.line2) or ''
    vim.cmd(range .. name .. ' ' .. o.args)
  end, { nargs = '*', range = true, desc = 'agent-lsp (sets itself up with the defaults first)' })
end
