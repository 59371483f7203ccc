-- The plan (todo_write) in the chat transcript: a block of one line per
-- item, `[ ]` pending, `[~]` in progress, `[x]` completed, under a header
-- counting the completed ones. Within a turn the block is redrawn in place
-- at each plan update, so the transcript keeps one plan per prompt: the
-- block follows the plan's progress instead of repeating it.
local compat = require('agent_lsp.compat')
local M = {}

---An item of the plan (todo_write).
---@class agent_lsp.PlanItem
---@field content string
---@field status 'pending'|'in_progress'|'completed'

---Where the current turn's block starts (an extmark) and how many lines
---it has; nil before the turn's first plan update.
---@type { mark: integer, count: integer }?
local block = nil
---The session's plan as last received.
---@type agent_lsp.PlanItem[]
local current = {}

local marks_ns = vim.api.nvim_create_namespace('agent_lsp_plan')

local markers = {
  pending = { '[ ]', nil },
  in_progress = { '[~]', 'AgentLspPlanActive' },
  completed = { '[x]', 'AgentLspPlanDone' },
}

-- lines returns the block's lines and the highlight group of each.
function M.lines(items)
  local done = 0
  for _, item in ipairs(items) do
    if item.status == 'completed' then
      done = done + 1
    end
  end
  if #items == 0 then
    return { '☰ Plan: empty' }, { 'AgentLspPlan' }
  end
  local lines = { string.format('☰ Plan (%d/%d done)', done, #items) }
  local groups = { 'AgentLspPlan' }
  for _, item in ipairs(items) do
    local marker = markers[item.status] or { '[?]', nil }
    local content = compat.str(item.content):gsub('%s*\n%s*', ' ')
    table.insert(lines, '  ' .. marker[1] .. ' ' .. content)
    table.insert(groups, marker[2] or false)
  end
  return lines, groups
end

---The session's plan as last shown (a copy).
---@return agent_lsp.PlanItem[]
function M.items()
  return vim.deepcopy(current)
end

-- forget_block makes the next plan update start a new block (a new turn,
-- or a new transcript).
function M.forget_block()
  block = nil
end

-- forget drops the plan (another session was picked).
function M.forget()
  block = nil
  current = {}
end

local function fire()
  vim.api.nvim_exec_autocmds('User', { pattern = 'AgentLspPlan', modeline = false })
end

-- render shows items in the chat's transcript: the turn's block redrawn in
-- place, else a new block at the end. An empty plan (/clear) opens no
-- block of its own: a note says the plan was cleared, when there was one.
function M.render(chat, items)
  local had = #current > 0
  current = vim.deepcopy(items)
  if #items == 0 and not block then
    if had then
      chat.note('☰ plan cleared', 'AgentLspPlan')
    end
    fire()
    return
  end
  local lines, groups = M.lines(items)
  local buf = chat.buffer()
  local row = block and vim.api.nvim_buf_get_extmark_by_id(buf, marks_ns, block.mark, {})[1]
  if row then
    local at_end = row + block.count == vim.api.nvim_buf_line_count(buf)
    chat.with_modifiable(function(b)
      vim.api.nvim_buf_clear_namespace(b, chat.ns, row, row + block.count)
      -- The text up to the block's last line break, not whole lines, so
      -- the marks of the lines below (tool calls) move with them.
      local last = row + block.count - 1
      local old = vim.api.nvim_buf_get_lines(b, last, last + 1, true)[1]
      vim.api.nvim_buf_set_text(b, row, 0, last, #old, lines)
    end)
    if at_end then
      chat.end_stream()
    end
  else
    row = chat.add_lines(lines)
  end
  block = { mark = vim.api.nvim_buf_set_extmark(buf, marks_ns, row, 0, { id = block and block.mark }), count = #lines }
  chat.with_modifiable(function(b)
    for i, group in ipairs(groups) do
      if group then
        compat.highlight(b, chat.ns, group, row + i - 1, 0, -1)
      end
    end
  end)
  fire()
end

return M
