-- :AgentAsk while the model stalls mid-answer, :AgentCancel: the prompt
-- ends (cancelled, answered by the daemon), the daemon stays up, and the
-- next :AgentAsk in the same session works. Reports the daemon's pid so
-- the Go test can check it is gone after Neovim quits.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local cfg = H.config
  -- mcp_servers = {} must reach the daemon as {}, with no warning.
  H.setup({ mcp_servers = {} })
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  vim.cmd('AgentAsk ' .. cfg.first_prompt)
  H.wait(20000, function()
    return H.chat_text():find(cfg.partial, 1, true) ~= nil
  end, 'the streamed start of the answer')
  H.report.running_before_cancel = H.status().running
  local pid = H.status().pid
  H.report.pid = pid

  local started = H.uv.hrtime()
  vim.cmd('AgentCancel')
  local last = H.wait_prompt_end(5000, 'the cancelled prompt to end')
  H.report.cancel_ms = (H.uv.hrtime() - started) / 1e6
  H.report.cancelled_last = last
  H.report.daemon_alive = pid ~= nil and H.uv.kill(pid, 0) == 0 and H.status().daemon_running

  vim.cmd('AgentAsk ' .. cfg.second_prompt)
  H.report.second_last = H.wait_prompt_end(20000, 'the prompt after the cancel')
  H.report.same_pid = H.status().pid == pid
  H.report.transcript = H.chat_lines()
end)
