-- Hunk review: the file is open, :AgentAsk makes the model propose an
-- edit; when the review float opens (User AgentLspReview) the keys of
-- config.keys are typed into it (nvim_feedkeys, as typed: the float and
-- then the feedback prompt read them). Reports every state of the float,
-- the feedback prompts asked, the buffer, the file on disk and the
-- windows left afterwards.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local cfg = H.config
  H.setup()
  H.capture_notifications()
  local path = cfg.root .. '/' .. cfg.file
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local file_win = vim.api.nvim_get_current_win()
  local bufnr = vim.api.nvim_get_current_buf()

  -- The built-in vim.ui.input (input()) reads the typed keys; only the
  -- prompt is recorded.
  local input = vim.ui.input
  H.report.inputs = {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(H.report.inputs, opts.prompt)
    return input(opts, on_confirm)
  end

  H.report.states = {}
  local typed = false
  vim.api.nvim_create_autocmd('User', {
    pattern = 'AgentLspReview',
    callback = function()
      local win = vim.api.nvim_get_current_win()
      local buf = vim.api.nvim_win_get_buf(win)
      table.insert(H.report.states, {
        float = vim.api.nvim_win_get_config(win).relative ~= '',
        filetype = vim.bo[buf].filetype,
        lines = vim.api.nvim_buf_get_lines(buf, 0, -1, true),
        cursor_line = vim.api.nvim_get_current_line(),
      })
      if not typed then
        typed = true
        H.feed_typed(cfg.keys)
      end
    end,
  })

  vim.cmd('AgentAsk ' .. cfg.prompt)
  H.report.last = H.wait_prompt_end(20000, 'the prompt to end')
  if cfg.expect_saved then
    H.wait(3000, function()
      return not vim.bo[bufnr].modified
    end, 'the edited buffer to be saved')
  else
    vim.wait(300) -- an unwanted edit or write would land by now
  end
  H.report.buffer_text = H.buffer_text(bufnr)
  H.report.modified = vim.bo[bufnr].modified
  H.report.disk_text = H.read_file(path)
  H.report.floats_after = #H.floats()
  H.report.back_in_file = vim.api.nvim_get_current_win() == file_win
  H.report.transcript = H.chat_lines()
end)
