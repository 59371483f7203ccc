-- A prompt whose model calls todo_write three times: the plan block in the
-- transcript after each plan update (the User AgentLspPlan autocommand),
-- the transcript at the end, require('agent_lsp').plan(), and the
-- transcript after the session is resumed (:AgentSessions), which draws
-- agent/session's plan again.
local H = dofile(os.getenv('E2E_HARNESS'))

-- plan_block returns the lines of the last plan block in the transcript.
local function plan_block()
  local lines = H.chat_lines()
  local first
  for i, line in ipairs(lines) do
    if vim.startswith(line, '☰ Plan') then
      first = i
    end
  end
  if not first then
    return {}
  end
  local block = { lines[first] }
  for i = first + 1, #lines do
    if not vim.startswith(lines[i], '  [') then
      break
    end
    table.insert(block, lines[i])
  end
  return block
end

H.run(function()
  local cfg = H.config
  -- setup({}): the empty initializationOptions must cause no warning.
  H.setup_bare()
  H.report.snapshots = {}
  vim.api.nvim_create_autocmd('User', {
    pattern = 'AgentLspPlan',
    callback = function()
      table.insert(H.report.snapshots, { block = plan_block(), items = require('agent_lsp').plan() })
    end,
  })
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  vim.cmd('AgentAsk ' .. cfg.prompt)
  H.report.last = H.wait_prompt_end(20000, 'the prompt to end')
  H.report.transcript = H.transcript()
  H.report.plan = require('agent_lsp').plan()

  vim.ui.select = function(items, _, on_choice)
    on_choice(items[1])
  end
  local before = #H.report.snapshots
  vim.cmd('AgentSessions')
  H.wait(5000, function()
    return #H.report.snapshots > before
  end, 'the resumed session to show its plan')
  H.report.resumed = H.chat_lines()
end)
