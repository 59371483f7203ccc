-- :AgentChat, then :AgentAsk (streaming into the chat), a second prompt
-- typed into the chat's prompt line, :AgentTools, :AgentSessions and
-- :checkhealth agent_lsp. Reports the transcript with each line's
-- highlight groups, the chat window's status line, the tools buffer, the
-- sessions offered and the health report.
local H = dofile(os.getenv('E2E_HARNESS'))

local window_of = H.window_of
local transcript = H.transcript

H.run(function()
  local cfg = H.config
  H.setup()
  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.root .. '/main.go'))

  -- The 100-column terminal where a fixed 80-column chat left the code 19.
  vim.o.columns = 100
  vim.cmd('AgentChat')
  local chat_buf = H.buffer_named('agent-lsp://chat')
  local input_buf = H.buffer_named('agent-lsp://prompt')
  H.check(chat_buf and window_of(chat_buf), 'the chat window is not shown')
  H.check(input_buf and window_of(input_buf), 'the prompt line is not shown')
  H.check(input_buf and vim.bo[input_buf].buftype == 'prompt', 'the prompt line is no prompt buffer')
  -- :AgentChat leaves the cursor in the prompt line; come back to the file.
  vim.cmd('stopinsert')
  vim.cmd('wincmd t')

  vim.cmd('AgentAsk ' .. cfg.first_prompt)
  local streamed = false
  H.wait(20000, function()
    streamed = streamed or (H.status().running and H.chat_text():find(cfg.first_streamed, 1, true) ~= nil)
    return not H.status().running and H.status().last ~= nil
  end, 'the first prompt to end')
  H.report.first_last = H.status().last
  H.report.streamed_while_running = streamed
  H.report.statusline = require('agent_lsp').statusline()
  H.report.chat_width = vim.api.nvim_win_get_width(window_of(chat_buf))
  H.report.code_width = vim.api.nvim_win_get_width(vim.fn.win_getid(1))
  -- The status line as drawn in the chat window made narrow (36 columns).
  vim.api.nvim_win_set_width(window_of(chat_buf), 36)
  H.report.narrow_statusline =
    vim.api.nvim_eval_statusline(vim.wo[window_of(chat_buf)].statusline, { winid = window_of(chat_buf) }).str
  vim.o.columns = 200
  vim.cmd('doautocmd VimResized')
  H.report.wide_chat_width = vim.api.nvim_win_get_width(window_of(chat_buf))

  -- A second prompt typed into the prompt line.
  vim.api.nvim_set_current_win(window_of(input_buf))
  local keys = vim.api.nvim_replace_termcodes('A' .. cfg.second_prompt .. '<CR>', true, false, true)
  vim.api.nvim_feedkeys(keys, 'xt', false)
  H.wait(20000, function()
    return not H.status().running and H.status().last and H.status().last.text == cfg.second_answer
  end, 'the typed prompt to end')
  H.report.second_last = H.status().last
  H.report.transcript = transcript()
  H.report.input_lines = vim.api.nvim_buf_get_lines(input_buf, 0, -1, true)
  vim.cmd('wincmd t')

  vim.cmd('AgentTools')
  H.wait(5000, function()
    return H.buffer_named('agent-lsp://tools') ~= nil
  end, 'the tools buffer')
  local tools = H.buffer_named('agent-lsp://tools')
  H.report.tools = tools and vim.api.nvim_buf_get_lines(tools, 0, -1, true) or {}
  if tools then
    vim.cmd('bwipeout ' .. tools)
  end

  local picked
  vim.ui.select = function(items, opts, on_choice)
    H.report.sessions = vim.tbl_map(opts.format_item, items)
    picked = items[1]
    on_choice(items[1])
  end
  vim.cmd('AgentSessions')
  H.wait(5000, function()
    return picked ~= nil
  end, 'the sessions picker')
  H.report.session_id = H.status().session_id
  H.report.picked = picked and picked.sessionId
  -- The pick redraws the chat from agent/transcript.
  H.wait(5000, function()
    return H.chat_text():find('— continuing session', 1, true) ~= nil
  end, 'the picked session redrawn')
  H.report.after_pick = transcript()

  -- The chat wiped and the daemon restarted: :AgentChat redraws the
  -- session from the new daemon's store.
  local daemon = require('agent_lsp.daemon')
  local st = daemon.state(H.status().root)
  local old_pid = H.status().pid
  daemon.stop(st)
  H.wait(5000, function()
    return not H.status().daemon_running
  end, 'the daemon to stop')
  vim.cmd('bwipeout! agent-lsp://chat')
  vim.cmd('bwipeout! agent-lsp://prompt')
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  H.wait(10000, function()
    return H.chat_text():find(cfg.second_answer, 1, true) ~= nil
  end, 'the reopened chat redrawn')
  H.report.reopened = transcript()
  H.report.restarted = H.status().pid ~= old_pid
  vim.cmd('wincmd t')

  vim.cmd('checkhealth agent_lsp')
  H.report.health = vim.api.nvim_buf_get_lines(0, 0, -1, true)
end)
