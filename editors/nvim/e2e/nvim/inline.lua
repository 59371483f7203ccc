-- :'<,'>AgentInline on a selected function; the approval is answered with
-- config.answer. Reports the buffer, the file on disk, the popups (with
-- the diff float shown meanwhile), the agent/approve requests and answers
-- and the progress texts seen near the selection.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local cfg = H.config
  -- The approval (agent/approve, with the edit's hunks), not the hunk
  -- review: the client does not declare experimental.agentReview.
  H.record_approvals()
  if cfg.broken_markdown then
    -- A markdown ftplugin that errors, as a Debian-layout Neovim under
    -- lazy.nvim's runtime path can have.
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir .. '/ftplugin', 'p')
    vim.fn.writefile({ "error('broken markdown ftplugin')" }, dir .. '/ftplugin/markdown.lua')
    vim.opt.runtimepath:prepend(dir)
    vim.cmd('filetype plugin on')
    if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
      -- And no markdown parser (lazy.nvim's runtime path leaves out
      -- Debian's parser directory): its lookup fails as it does there.
      vim.treesitter.language.register('no_such_parser', 'markdown')
    end
  end
  H.setup({ review = false })
  H.answer_approvals(cfg.answer)
  local path = cfg.root .. '/' .. cfg.file
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()

  -- Select the function as a user would, then run the command on '<,'>.
  vim.cmd(string.format('normal! %dGV%dG\27', cfg.line1, cfg.line2))
  vim.cmd("'<,'>AgentInline " .. cfg.prompt)

  local ns = vim.api.nvim_get_namespaces()['agent_lsp_inline']
  local progress, seen = {}, {}
  local function sample()
    for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
      local details = mark[4] or {}
      for _, chunk in ipairs(details.virt_text or {}) do
        if not seen[chunk[1]] then
          seen[chunk[1]] = true
          table.insert(progress, { line = mark[2], text = chunk[1] })
        end
      end
    end
  end
  H.wait(20000, function()
    sample()
    local s = H.status()
    return not s.running and s.last ~= nil
  end, 'the inline prompt to end')
  sample()
  H.report.progress = progress
  H.report.floats_after = H.floats()
  H.report.last = H.status().last

  if cfg.expect_saved then
    H.wait(3000, function()
      return not vim.bo[bufnr].modified
    end, 'the edited buffer to be saved')
  else
    vim.wait(300) -- an unwanted write would land by now
  end
  H.report.buffer_text = H.buffer_text(bufnr)
  H.report.modified = vim.bo[bufnr].modified
  H.report.disk_text = H.read_file(path)
end)
