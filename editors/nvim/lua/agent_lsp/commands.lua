-- The :Agent* user commands. plugin/agent_lsp.lua makes them at startup, so
-- they exist before setup(); setup() makes them again (for a runtimepath
-- whose plugin/ files are not sourced, as with -u NONE). Used before
-- setup(), a command (or its completion) sets the plugin up with the
-- defaults first. Nothing else of the plugin is loaded until one is used.
local M = {}

---The public API, set up (with the defaults when setup() never ran).
---@return agent_lsp
local function api()
  local agent = require('agent_lsp')
  agent.ensure_setup()
  return agent
end

-- cmdline completes :AgentAsk's words (slash commands, @files).
local function complete_prompt(arglead, cmdline, cursorpos)
  api()
  return require('agent_lsp.complete').cmdline(arglead, cmdline, cursorpos)
end

local function complete_mode(lead)
  api()
  return vim.tbl_filter(function(m)
    return vim.startswith(m, lead)
  end, require('agent_lsp.control').mode_names())
end

local function complete_model(arglead)
  api()
  return require('agent_lsp.complete').models(arglead)
end

---Makes (or makes again) every command.
function M.create()
  local command = vim.api.nvim_create_user_command
  command('AgentChat', function()
    api().chat()
  end, { desc = 'agent-lsp: open the chat' })
  command('AgentAsk', function(o)
    api().ask(o.args)
  end, { nargs = '*', complete = complete_prompt, desc = 'agent-lsp: ask in the chat' })
  command('AgentMode', function(o)
    api().mode(o.args)
  end, { nargs = '?', complete = complete_mode, desc = "agent-lsp: set the chat session's mode" })
  command('AgentModel', function(o)
    api().model(o.args)
  end, { nargs = '?', complete = complete_model, desc = "agent-lsp: switch the chat session's model" })
  command('AgentInline', function(o)
    api().inline(vim.api.nvim_get_current_buf(), o.line1, o.line2, o.args)
  end, { nargs = '*', range = true, desc = 'agent-lsp: prompt about the selected lines' })
  command('AgentSteer', function(o)
    api().steer(o.args)
  end, { nargs = '*', complete = complete_prompt, desc = 'agent-lsp: steer the running prompt' })
  command('AgentQueue', function()
    api().queue()
  end, { desc = 'agent-lsp: edit or remove a queued message' })
  command('AgentSubagent', function()
    api().subagent()
  end, { desc = "agent-lsp: show a subagent's conversation" })
  command('AgentCancel', function(o)
    api().cancel(o.bang)
  end, { bang = true, desc = 'agent-lsp: cancel the running prompt (!: and drop the queue)' })
  command('AgentSessions', function()
    api().sessions()
  end, { desc = 'agent-lsp: resume a session' })
  command('AgentRewind', function(o)
    local arg = vim.trim(o.args)
    local n = tonumber(arg)
    if arg ~= '' and (n == nil or n ~= math.floor(n)) then
      vim.notify('agent-lsp: :AgentRewind takes a checkpoint number, not ' .. arg, vim.log.levels.ERROR)
      return
    end
    api().rewind(n)
  end, { nargs = '?', desc = 'agent-lsp: rewind the session to before a prompt' })
  command('AgentTools', function()
    api().tools()
  end, { desc = "agent-lsp: list the agent's tools" })
  command('AgentPermissions', function()
    api().permissions()
  end, { desc = 'agent-lsp: list, remove or trust the saved permission rules' })
end

return M
