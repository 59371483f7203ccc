-- agent-lsp's startup file: the :Agent* commands and the default highlight
-- groups exist before require('agent_lsp').setup() runs. A command used
-- before setup() sets the plugin up with the defaults (a later setup()
-- with options replaces them), then runs. Nothing else is loaded until one
-- is used. Set vim.g.loaded_agent_lsp before startup to leave it all out.
if vim.g.loaded_agent_lsp or vim.fn.exists('*nvim_create_user_command') == 0 then
  return
end
vim.g.loaded_agent_lsp = true

require('agent_lsp.highlights').setup()
require('agent_lsp.commands').create()
