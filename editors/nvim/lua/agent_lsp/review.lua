-- Hunk review: the daemon's agent/review request (docs/protocol.md, "Hunk
-- review") for an edit. The hunks are shown in a floating window (filetype
-- diff), each under a line with its mark, [✓] accepted or [✗] rejected;
-- keys toggle them, <CR> confirms and asks for optional feedback for the
-- model, q or <Esc> rejects the whole edit.
--
-- Neovim before 0.10 runs a server request's handler on the main loop and
-- sends its return value as the answer, so the review must finish inside
-- the handler. Buffer key maps never run there (vim.wait does not execute
-- typed keys), so the float reads keys itself: vim.wait until a key is
-- typed (the timeout and the daemon's death end it), then getchar(). Keys
-- fed with nvim_feedkeys() or nvim_input() reach it like typed ones.
local await = require('agent_lsp.await')
local config = require('agent_lsp.config')
local compat = require('agent_lsp.compat')

local M = {}

local ns = vim.api.nvim_create_namespace('agent_lsp_review')

M.help = '<Space>/x toggle  a accept all  r reject all  n/N next/previous  <CR> confirm  q reject'

local function termcode(keys)
  return vim.api.nvim_replace_termcodes(keys, true, false, true)
end

-- lines_of describes a hunk's place in the text the agent read (its lines
-- are 0-based, endLine exclusive; shown 1-based).
local function lines_of(hunk)
  local first, last = (hunk.startLine or 0) + 1, hunk.endLine or 0
  if last < first then
    return 'insert before line ' .. first
  elseif last == first then
    return 'line ' .. first
  end
  return string.format('lines %d-%d', first, last)
end

local function mark_line(view, i)
  local hunk = view.hunks[i]
  return string.format(
    '%s hunk %s of %d · %s',
    view.accepted[i] and '[✓]' or '[✗]',
    tostring(hunk.id),
    #view.hunks,
    lines_of(hunk)
  )
end

-- layout builds the float's lines and the row of each hunk's mark line.
local function layout(view)
  local p = view.params
  local head = tostring(p.summary or (tostring(p.tool) .. ' ' .. tostring(p.path)))
  if p.risk then
    head = head .. ' · risk ' .. tostring(p.risk)
  end
  local lines = { head }
  for _, reason in ipairs(type(p.reasons) == 'table' and p.reasons or {}) do
    table.insert(lines, 'Why: ' .. tostring(reason))
  end
  view.help_row = #lines
  table.insert(lines, M.help)
  view.rows = {}
  for i, hunk in ipairs(view.hunks) do
    view.rows[i] = #lines
    table.insert(lines, mark_line(view, i))
    local diff = vim.split(compat.str(hunk.diff), '\n', { plain = true })
    if diff[#diff] == '' then
      table.remove(diff)
    end
    vim.list_extend(lines, diff)
  end
  return lines
end

local function highlight(view)
  vim.api.nvim_buf_clear_namespace(view.buf, ns, 0, -1)
  compat.highlight(view.buf, ns, 'AgentLspReviewHeader', 0, 0, -1)
  compat.highlight(view.buf, ns, 'AgentLspReviewHelp', view.help_row, 0, -1)
  for i, row in ipairs(view.rows) do
    local group = view.accepted[i] and 'AgentLspReviewAccepted' or 'AgentLspReviewRejected'
    compat.highlight(view.buf, ns, group, row, 0, -1)
  end
end

-- redraw rewrites the mark lines, shows the screen and fires
-- `User AgentLspReview` (the float is open and waits for a key).
local function redraw(view)
  vim.bo[view.buf].modifiable = true
  for i, row in ipairs(view.rows) do
    vim.api.nvim_buf_set_lines(view.buf, row, row + 1, true, { mark_line(view, i) })
  end
  vim.bo[view.buf].modifiable = false
  highlight(view)
  vim.cmd('redraw')
  vim.api.nvim_exec_autocmds('User', { pattern = 'AgentLspReview', modeline = false })
end

local function open(view)
  local lines = layout(view)
  view.previous_win = vim.api.nvim_get_current_win()
  -- Entered, so the cursor shows which hunk the keys act on.
  view.win, view.buf = require('agent_lsp.float').open(
    lines,
    { filetype = 'diff', min_width = 40, enter = true, title = 'agent-lsp: review ' .. compat.str(view.params.path) }
  )
  vim.wo[view.win].cursorline = true
  vim.api.nvim_win_set_cursor(view.win, { view.rows[1] + 1, 0 })
end

local function close(view)
  if view.win and vim.api.nvim_win_is_valid(view.win) then
    vim.api.nvim_win_close(view.win, true)
  end
  if view.previous_win and vim.api.nvim_win_is_valid(view.previous_win) then
    vim.api.nvim_set_current_win(view.previous_win)
  end
  vim.cmd('redraw')
end

-- current is the hunk the cursor is in (its mark line or its diff).
local function current(view)
  local row = vim.api.nvim_win_get_cursor(view.win)[1] - 1
  local found = 1
  for i, r in ipairs(view.rows) do
    if r <= row then
      found = i
    end
  end
  return found
end

local function go_to(view, i)
  i = math.max(1, math.min(#view.hunks, i))
  vim.api.nvim_win_set_cursor(view.win, { view.rows[i] + 1, 0 })
end

local function set_all(view, accepted)
  for i = 1, #view.hunks do
    view.accepted[i] = accepted
  end
end

-- Motions run as Normal mode commands in the float.
local motions = {}
for _, key in ipairs({ 'j', 'k', 'G', '<Down>', '<Up>', '<C-d>', '<C-u>', '<C-f>', '<C-b>', '<C-e>', '<C-y>' }) do
  motions[termcode(key)] = termcode(key)
end

-- read_key waits for a typed key (nil on timeout, interrupt or when alive()
-- turns false) and returns it as a string.
local function read_key(view, alive)
  local remaining = view.deadline - compat.uv.now()
  local typed = remaining > 0
    and vim.wait(remaining, function()
      return not alive() or vim.fn.getchar(1) ~= 0
    end, 20)
  if not typed or not alive() then
    return nil
  end
  local key = vim.fn.getchar()
  return type(key) == 'number' and vim.fn.nr2char(key) or key
end

-- choose runs the float until <CR> (returns true) or q/<Esc>, a timeout,
-- the daemon's exit (false).
local function choose(view, alive)
  local toggle = { [' '] = true, x = true }
  local confirm = { [termcode('<CR>')] = true, [termcode('<NL>')] = true }
  local cancel = { q = true, [termcode('<Esc>')] = true, [termcode('<C-c>')] = true }
  local next_hunk = { n = true, [termcode('<Tab>')] = true }
  local previous_hunk = { N = true, p = true, [termcode('<S-Tab>')] = true }
  while true do
    redraw(view)
    local key = read_key(view, alive)
    if key == nil or cancel[key] then
      return false
    elseif confirm[key] then
      return true
    elseif toggle[key] then
      local i = current(view)
      view.accepted[i] = not view.accepted[i]
    elseif key == 'a' or key == 'r' then
      set_all(view, key == 'a')
    elseif next_hunk[key] then
      go_to(view, current(view) + 1)
    elseif previous_hunk[key] then
      go_to(view, current(view) - 1)
    elseif key == 'g' and read_key(view, alive) == 'g' then
      vim.api.nvim_win_set_cursor(view.win, { 1, 0 })
    elseif motions[key] then
      vim.cmd('normal! ' .. motions[key])
    end
  end
end

-- feedback asks for text for the model (vim.ui.input, maybe asynchronous);
-- nil when none was given.
local function feedback(view)
  local accepted = 0
  for _, on in ipairs(view.accepted) do
    accepted = accepted + (on and 1 or 0)
  end
  local prompt = string.format('Feedback for the agent (optional; %d of %d hunks accepted): ', accepted, #view.hunks)
  local text = await.await(function(done)
    vim.ui.input({ prompt = prompt, kind = 'agent_lsp_feedback' }, done)
  end)
  if type(text) ~= 'string' or vim.trim(text) == '' then
    return nil
  end
  return text
end

-- answer is the contract's answer for the hunks accepted.
local function answer(view, text)
  local ids = {}
  for i, hunk in ipairs(view.hunks) do
    if view.accepted[i] then
      table.insert(ids, hunk.id)
    end
  end
  local result = { decision = 'partial', acceptedHunks = ids, feedback = text }
  if #ids == #view.hunks then
    result = { decision = 'accept', feedback = text }
  elseif #ids == 0 then
    result = { decision = 'reject', feedback = text }
  end
  return result
end

---The review float's state while it runs.
---@class agent_lsp.ReviewView
---@field params table the agent/review request
---@field hunks table[] its hunks {id, startLine, endLine, oldText, newText, diff}
---@field accepted boolean[] by hunk index: the hunk is accepted
---@field deadline number libuv time (ms) when the review counts as a rejection
---@field win integer? the float
---@field buf integer? its buffer
---@field previous_win integer? the window to go back to
---@field rows integer[]? by hunk index: the 0-based row of its mark line
---@field help_row integer? the row of the key help

local function review(params, alive)
  ---@type agent_lsp.ReviewView
  local view = {
    params = params,
    hunks = params.hunks,
    accepted = {},
    deadline = compat.uv.now() + config.options.approval_timeout_ms,
  }
  set_all(view, true)
  open(view)
  local ok, confirmed = pcall(choose, view, alive)
  close(view)
  if not ok then
    error(confirmed, 0)
  end
  if not confirmed then
    return { decision = 'reject' }
  end
  return answer(view, feedback(view))
end

-- handle answers agent/review: {decision, acceptedHunks?, feedback?}.
function M.handle(_, params, ctx)
  if type(params) ~= 'table' or type(params.hunks) ~= 'table' or #params.hunks == 0 then
    return { decision = 'reject' }
  end
  local client_id = ctx and ctx.client_id
  local function alive()
    local client = client_id and vim.lsp.get_client_by_id(client_id)
    return client ~= nil and not compat.is_stopped(client)
  end
  local ok, result = pcall(review, params, alive)
  if not ok then
    vim.notify('agent-lsp: review failed, rejecting the edit: ' .. tostring(result), vim.log.levels.WARN)
    return { decision = 'reject' }
  end
  return result
end

return M
