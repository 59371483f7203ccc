-- :AgentAsk with config.prompt; each approval (agent/approve) is answered
-- with config.answer. Reports the popups (with the floats shown
-- meanwhile), the agent/approve requests and answers, and how the prompt
-- ended.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local cfg = H.config
  H.record_approvals()
  H.setup()
  H.answer_approvals(cfg.answer)
  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.root .. '/main.go'))
  vim.cmd('AgentAsk ' .. cfg.prompt)
  H.report.last = H.wait_prompt_end(20000, 'the prompt to end')
  H.report.floats_after = H.floats()
end)
