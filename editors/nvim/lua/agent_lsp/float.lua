-- Floating windows: a centred one over a scratch buffer, shared by the
-- approval and review views, and the inline answer next to the cursor;
-- all drawn in the AgentLspFloat* groups.
local compat = require('agent_lsp.compat')

local M = {}

-- The floats' own groups (highlights.lua), not NormalFloat: 0.7's is
-- Pmenu (light pink on magenta in the default scheme).
M.winhighlight = 'Normal:AgentLspFloat,NormalNC:AgentLspFloat,FloatBorder:AgentLspFloatBorder,'
  .. 'CursorLine:AgentLspFloatCursorLine'
  .. (compat.float_title and ',FloatTitle:AgentLspFloatTitle' or '')

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
  if opts.title and compat.float_title then
    win_opts.title = ' ' .. opts.title .. ' '
  end
  local win = vim.api.nvim_open_win(buf, opts.enter == true, win_opts)
  vim.wo[win].wrap = false
  vim.wo[win].winhighlight = M.winhighlight
  return win, buf
end

-- answer shows an inline prompt's text answer in a float at the cursor,
-- closed when the cursor moves or the buffer changes (as LSP hovers are).
-- Returns win, buf.
function M.answer(text)
  local lines = vim.split(vim.trim(text), '\n', { plain = true })
  local opts = {
    border = 'rounded',
    focus_id = 'agent_lsp_answer',
    max_width = math.max(40, math.floor(vim.o.columns * 0.6)),
    wrap = true,
  }
  local before = {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    before[w] = true
  end
  -- No FileType autocommands for the float: a user's markdown ftplugin
  -- that errors would print its stack trace over the answer (Neovim
  -- reports it, the call does not fail).
  local eventignore = vim.o.eventignore
  vim.o.eventignore = eventignore == '' and 'FileType' or eventignore .. ',FileType'
  local ok, buf, win = pcall(vim.lsp.util.open_floating_preview, lines, 'markdown', opts)
  vim.o.eventignore = eventignore
  if not ok then
    -- Markdown highlighting failed (a treesitter parser missing from a
    -- plugin manager's runtime path, as lazy.nvim on a Debian-layout
    -- Neovim has it): the answer is what matters, so it is shown as
    -- plain text, and the half-made float is closed.
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if not before[w] and vim.api.nvim_win_is_valid(w) then
        pcall(vim.api.nvim_win_close, w, true)
      end
    end
    buf, win = vim.lsp.util.open_floating_preview(lines, nil, opts)
  end
  vim.wo[win].winhighlight = M.winhighlight
  return win, buf
end

return M
