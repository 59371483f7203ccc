-- Rewind: in auto-edit mode a prompt edits the open file; :AgentRewind
-- without a number shows the checkpoints (the picker is closed), then
-- :AgentRewind 1 restores the buffer and drops the prompt from the
-- conversation; a second prompt runs; finally `u` in the file undoes the
-- rewind. Reports the texts at each step, the picker's items and the chat.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local cfg = H.config
  H.setup({ mode = 'auto-edit' })
  H.capture_notifications()
  local path = cfg.root .. '/' .. cfg.file
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local function saved()
    return not vim.bo[bufnr].modified
  end

  vim.cmd('AgentAsk ' .. cfg.first_prompt)
  H.report.first_last = H.wait_prompt_end(20000, 'the first prompt to end')
  H.wait(3000, saved, 'the edit to be saved')
  local edited = H.buffer_text(bufnr)
  H.report.after_edit = edited

  vim.ui.select = function(items, opts, on_choice)
    H.report.picker = { prompt = opts.prompt, items = vim.tbl_map(opts.format_item, items) }
    on_choice(nil)
  end
  vim.cmd('AgentRewind')
  H.wait(5000, function()
    return H.report.picker ~= nil
  end, 'the checkpoint picker')

  vim.cmd('AgentRewind 1')
  H.wait(5000, function()
    return H.buffer_text(bufnr) ~= edited and saved() and H.chat_text():find('↶ rewound', 1, true) ~= nil
  end, 'the rewind to restore the buffer')
  H.report.after_rewind = H.buffer_text(bufnr)
  H.report.disk_after_rewind = H.read_file(path)

  vim.cmd('AgentAsk ' .. cfg.second_prompt)
  H.report.second_last = H.wait_prompt_end(20000, 'the second prompt to end')

  vim.api.nvim_buf_call(bufnr, function()
    vim.cmd('silent undo')
  end)
  H.report.after_undo = H.buffer_text(bufnr)
  H.report.transcript = H.chat_lines()
end)
