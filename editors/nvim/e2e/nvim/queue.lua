-- Queue, steer and a subagent in the chat: :AgentAsk starts a turn whose
-- task call runs a subagent, then a command the script holds at its
-- approval. While it is held, :AgentAsk queues a prompt, :AgentSteer
-- steers, :AgentQueue edits the queued one; the report takes the chat then
-- (its waiting messages as drawn, the status line), and after both prompts
-- ended. Last, a line typed into the prompt line and sent with the steer
-- key while nothing runs goes as an ordinary prompt; :AgentSubagent shows
-- the child's conversation.
local H = dofile(os.getenv('E2E_HARNESS'))

-- queue_lines is the text of the virtual lines below the chat's end.
local function queue_lines()
  local buf = H.buffer_named('agent-lsp://chat')
  local out = {}
  local marks = vim.api.nvim_buf_get_extmarks(buf, require('agent_lsp.chat_queue').ns, 0, -1, { details = true })
  for _, m in ipairs(marks) do
    for _, line in ipairs(m[4].virt_lines or {}) do
      local text = ''
      for _, chunk in ipairs(line) do
        text = text .. chunk[1]
      end
      table.insert(out, text)
    end
    H.report.queue_row = m[2]
  end
  return out
end

-- poll calls fn every 20 ms until it returns true (deferred: it runs
-- while the approval handler waits for the picker).
local function poll(fn)
  if not fn() then
    vim.defer_fn(function()
      poll(fn)
    end, 20)
  end
end

H.run(function()
  local cfg = H.config
  H.setup({ provider = cfg.provider, base_url = cfg.provider_base_url })
  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.root .. '/main.go'))
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  vim.cmd('wincmd t')

  -- While the command waits for its approval (on 0.7-0.9 inside the
  -- approval handler's own wait, so everything here is deferred): queue,
  -- steer, edit the queued prompt, then allow the command.
  local function while_held(approve)
    vim.cmd('AgentAsk ' .. cfg.queued)
    vim.cmd('AgentSteer ' .. cfg.steer)
    poll(function()
      if #queue_lines() ~= 3 then
        return false
      end
      H.report.held_queue = queue_lines()
      H.report.held_statusline = require('agent_lsp').statusline()
      vim.cmd('AgentQueue')
      poll(function()
        if not table.concat(queue_lines(), '\n'):find(cfg.edited, 1, true) then
          return false
        end
        H.report.edited_queue = queue_lines()
        H.report.held_transcript = H.transcript()
        approve()
        return true
      end)
      return true
    end)
  end
  vim.ui.input = function(opts, on_confirm)
    H.report.edit_default = opts.default
    on_confirm(cfg.edited)
  end
  vim.ui.select = function(items, opts, on_choice)
    if opts.kind == 'agent_lsp_approval' then
      vim.schedule(function()
        while_held(function()
          on_choice(items[1], 1) -- Allow
        end)
      end)
      return
    end
    local shown = vim.tbl_map(opts.format_item or tostring, items)
    if opts.prompt == 'Subagent' then
      H.report.subagents_offered = shown
      on_choice(items[1], 1)
      return
    end
    table.insert(H.report.popups, { prompt = opts.prompt, items = shown })
    if opts.prompt == 'Waiting messages' then
      for i, item in ipairs(items) do
        if item.delivery == 'queue' then
          on_choice(item, i)
          return
        end
      end
    end
    on_choice('Edit', 1)
  end

  vim.cmd('AgentAsk ' .. cfg.prompt)
  H.wait(25000, function()
    return H.chat_text():find(cfg.queued_answer, 1, true) ~= nil and not H.status().running and H.status().queued == 0
  end, 'the turn and the queued prompt to end')
  H.wait(10000, function()
    return require('agent_lsp.chat').status().state == 'idle'
  end, 'the chat to be idle')
  H.report.after_queue = queue_lines()
  H.report.after_statusline = require('agent_lsp').statusline()

  -- The steer key in the prompt line, with nothing running: a prompt.
  local input_buf = H.buffer_named('agent-lsp://prompt')
  vim.api.nvim_set_current_win(H.window_of(input_buf))
  H.feed('A' .. cfg.idle_steer .. '<M-CR>')
  H.report.last = H.wait_prompt_end(20000, 'the idle steer to end')
  H.report.transcript = H.transcript()
  H.report.input_statusline = vim.wo[H.window_of(input_buf)].statusline
  vim.cmd('stopinsert')
  vim.cmd('wincmd t')

  -- :AgentSubagent: the child's conversation in a scratch buffer.
  vim.cmd('AgentSubagent')
  H.wait(10000, function()
    return H.buffer_named('agent-lsp://subagent') ~= nil
  end, "the subagent's conversation")
  H.report.subagent = vim.api.nvim_buf_get_lines(H.buffer_named('agent-lsp://subagent'), 0, -1, true)
end)
