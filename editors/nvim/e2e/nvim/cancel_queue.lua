-- :AgentCancel and the queue: a turn's command (allowed) waits for a file
-- that never comes; a queued prompt and a steer message wait. :AgentCancel
-- cancels the turn and drops the steer message (never drawn as delivered
-- nor run); the queued prompt then runs. A second turn's command waits
-- again with a queued prompt: :AgentCancel! drops that one too.
local H = dofile(os.getenv('E2E_HARNESS'))

local function queued_count()
  local buf = H.buffer_named('agent-lsp://chat')
  local marks = vim.api.nvim_buf_get_extmarks(buf, require('agent_lsp.chat_queue').ns, 0, -1, { details = true })
  local n = 0
  for _, m in ipairs(marks) do
    n = n + #(m[4].virt_lines or {})
  end
  return n
end

local function running_command()
  return H.chat_text():find('$ until', 1, true) ~= nil and H.chat_text():find('… running', 1, true) ~= nil
end

H.run(function()
  local cfg = H.config
  H.setup({ provider = cfg.provider, base_url = cfg.provider_base_url })
  H.answer_approvals('Allow')
  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.root .. '/main.go'))

  vim.cmd('AgentAsk ' .. cfg.first)
  H.wait(20000, running_command, 'the first command to run')
  vim.cmd('AgentAsk ' .. cfg.queued)
  vim.cmd('AgentSteer ' .. cfg.steer)
  H.wait(10000, function()
    return queued_count() == 3
  end, 'the queued and steer messages')
  vim.cmd('AgentCancel')
  H.wait(20000, function()
    return H.chat_text():find(cfg.queued_answer, 1, true) ~= nil and not H.status().running and H.status().queued == 0
  end, 'the queued prompt to run after the cancel')
  H.wait(10000, function()
    return require('agent_lsp.chat').status().state == 'idle'
  end, 'the chat to be idle')
  H.report.after_cancel = H.transcript()

  vim.cmd('AgentAsk ' .. cfg.second)
  H.wait(20000, function()
    local lines = H.chat_lines()
    return lines[#lines] and lines[#lines]:find('… running', 1, true) ~= nil
  end, 'the second command to run')
  vim.cmd('AgentAsk ' .. cfg.dropped)
  H.wait(10000, function()
    return queued_count() == 2
  end, 'the second queued message')
  vim.cmd('AgentCancel!')
  H.wait(20000, function()
    return not H.status().running
      and H.status().queued == 0
      and queued_count() == 0
      and require('agent_lsp.chat').status().state == 'idle'
  end, 'the second turn cancelled and its queue dropped')
  H.report.transcript = H.transcript()
end)
