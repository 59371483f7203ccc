-- A daemon killed (SIGKILL) between prompts, or while a prompt streams
-- (config.stall_prompt): the plugin says so and ends that prompt, the next
-- :AgentAsk starts a new daemon and continues the same session. Reports
-- both pids, the notifications and the prompts' ends.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local cfg = H.config
  H.setup()
  H.capture_notifications()
  -- The kill is the point: the plugin's message, and 0.10+'s own.
  H.allow_message('^agent%-lsp exited unexpectedly')
  H.allow_message('^Client .- quit with exit code')
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  vim.cmd('AgentAsk ' .. cfg.first_prompt)
  H.report.first_last = H.wait_prompt_end(20000, 'the first prompt to end')
  local pid = H.status().pid
  H.report.first_pid = pid

  if cfg.stall_prompt then
    vim.cmd('AgentAsk ' .. cfg.stall_prompt)
    H.wait(20000, function()
      return H.chat_text():find(cfg.partial, 1, true) ~= nil
    end, 'the stalled answer to start')
  end
  H.uv.kill(pid, 9)
  H.wait(5000, function()
    return H.status().crashes > 0
  end, 'the plugin to notice the dead daemon')
  H.report.daemon_running_after_crash = H.status().daemon_running
  H.report.killed_last = H.status().last
  H.report.running_after_crash = H.status().running
  H.report.crashes = H.status().crashes
  H.report.session_after_crash = H.status().session_id

  vim.cmd('AgentAsk ' .. cfg.second_prompt)
  H.report.second_last = H.wait_prompt_end(20000, 'the prompt after the restart')
  H.report.second_pid = H.status().pid
  H.report.transcript = H.chat_lines()
end)
