-- :AgentAsk with an answer in markdown (a heading, a list, a code block).
-- Reports how the transcript is highlighted: whether treesitter's
-- highlighter runs on it, the language a plugin asking treesitter for the
-- buffer's parser gets (render-markdown.nvim does), and the treesitter
-- captures and syntax groups on the heading, list and code lines.
local H = dofile(os.getenv('E2E_HARNESS'))

---The treesitter captures (0.9+) and the syntax groups at row, col of buf.
local function highlights_at(buf, row, col)
  local found = { captures = {}, syntax = {} }
  if vim.treesitter.get_captures_at_pos then
    for _, c in ipairs(vim.treesitter.get_captures_at_pos(buf, row, col)) do
      table.insert(found.captures, c.capture)
    end
  end
  vim.api.nvim_buf_call(buf, function()
    for _, id in ipairs(vim.fn.synstack(row + 1, col + 1)) do
      table.insert(found.syntax, vim.fn.synIDattr(id, 'name'))
    end
  end)
  return found
end

H.run(function()
  local cfg = H.config
  H.setup()
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')
  vim.cmd('AgentAsk ' .. cfg.prompt)
  H.wait_prompt_end(20000, 'the prompt to end')
  local buf = H.buffer_named('agent-lsp://chat')
  H.check(buf ~= nil, 'no chat buffer')
  H.report.filetype = vim.bo[buf].filetype
  H.report.syntax = vim.bo[buf].syntax
  local highlighter = vim.treesitter.highlighter
  H.report.treesitter_active = highlighter ~= nil and highlighter.active ~= nil and highlighter.active[buf] ~= nil
  local ok, parser = pcall(vim.treesitter.get_parser, buf)
  H.report.parser_lang = ok and parser and parser:lang() or ''
  if ok and parser then
    parser:parse(true) -- headless Neovim does not redraw, where the highlighter parses
  end
  H.report.lines = {}
  for row, text in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, true)) do
    for _, want in ipairs(cfg.probe) do
      if text == want then
        -- At the line's first underscore (inside a word), else its start.
        H.report.lines[want] = highlights_at(buf, row - 1, math.max((text:find('_', 1, true) or 1) - 1, 0))
      end
    end
  end
end)
