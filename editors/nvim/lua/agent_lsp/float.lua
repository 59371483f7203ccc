-- A centred floating window over a scratch buffer, shared by the approval
-- and review views.
local M = {}

-- open shows lines in a new scratch buffer in a centred float. opts:
-- filetype, title (shown on 0.9+), min_width (default 20), enter (focus the
-- float; default false, and then it is not focusable). Returns win, buf.
function M.open(lines, opts)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
  vim.bo[buf].filetype = opts.filetype
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  local width = opts.min_width or 20
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line))
  end
  width = math.min(width + 2, math.max(20, vim.o.columns - 8))
  local height = math.min(#lines, math.max(3, vim.o.lines - 8))
  local win_opts = {
    relative = 'editor',
    width = width,
    height = height,
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 2),
    col = math.max(0, math.floor((vim.o.columns - width) / 2)),
    style = 'minimal',
    border = 'rounded',
    focusable = opts.enter == true,
  }
  if opts.title and vim.fn.has('nvim-0.9') == 1 then
    win_opts.title = ' ' .. opts.title .. ' '
  end
  local win = vim.api.nvim_open_win(buf, opts.enter == true, win_opts)
  vim.wo[win].wrap = false
  return win, buf
end

return M
