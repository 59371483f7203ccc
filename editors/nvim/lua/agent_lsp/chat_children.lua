-- A subagent's progress in the chat, indented under its `task` call: the
-- child's text, reasoning, tool calls (each with its status) and errors go
-- between the task line and the child's usage line ("└ 2 calls · in …"),
-- which closes the block. Updates carrying parentToolCallId come here;
-- their tool call ids are the child's own (they may repeat the parent's).
-- Parallel children interleave: each block grows in place, wherever later
-- lines of the chat are.
local chat_lines = require('agent_lsp.chat_lines')
local compat = require('agent_lsp.compat')
local statusline = require('agent_lsp.statusline')

local M = {}

-- The marks that follow a block's lines while the chat grows around them.
local marks = vim.api.nvim_create_namespace('agent_lsp_chat_children')

local indent = '  │ '

---One child's block.
---@class agent_lsp.ChildBlock
---@field usage_mark integer the extmark on its usage line (the block's last)
---@field kind string? the kind of its last streamed line (text, reasoning)
---@field tools table<string, { mark: integer, head: string, running: boolean }> by the child's toolCallId
---@field usage table { promptTokens, completionTokens, cachedTokens } summed
---@field cost number? summed; nil once a call had no price
---@field calls integer its model calls

---@type table<string, agent_lsp.ChildBlock> by the task call's toolCallId
local blocks = {}
---@type { id: string, description: string }[] the task calls shown, in order
local tasks = {}

---The task calls the chat shows (for :AgentSubagent), oldest first.
---@return { id: string, description: string }[]
function M.tasks()
  return tasks
end

---The usage line's text.
---@param b agent_lsp.ChildBlock
---@return string
function M.usage_text(b)
  if b.calls == 0 then
    return '  └ subagent: no model call yet'
  end
  local short = statusline.short_number
  return string.format(
    '  └ subagent: %d call%s · in %s (%s cached) out %s%s',
    b.calls,
    b.calls == 1 and '' or 's',
    short(b.usage.promptTokens),
    short(b.usage.cachedTokens),
    short(b.usage.completionTokens),
    b.cost and string.format(' $%.4f', b.cost) or ''
  )
end

local function row_of(buf, mark)
  return vim.api.nvim_buf_get_extmark_by_id(buf, marks, mark, {})[1]
end

---Opens the block of task call id after the chat's last line (its task
---line was just added): only its usage line, for now.
---@param chat table the chat module
---@param id string
---@param description string? the task's description argument
function M.open(chat, id, description)
  table.insert(tasks, { id = id, description = description or '' })
  local b = {
    tools = {},
    usage = { promptTokens = 0, completionTokens = 0, cachedTokens = 0 },
    cost = 0,
    calls = 0,
  }
  local row = chat.add_lines({ M.usage_text(b) }, 'AgentLspNote')
  b.usage_mark = vim.api.nvim_buf_set_extmark(chat.buffer(), marks, row, 0, {})
  blocks[id] = b
end

-- insert puts lines (indented) just above the block's usage line and
-- returns the row of the first.
local function insert(chat, b, lines, hl)
  local first
  chat.with_modifiable(function(buf)
    first = row_of(buf, b.usage_mark)
    local shown = {}
    for i, l in ipairs(lines) do
      shown[i] = indent .. l
    end
    vim.api.nvim_buf_set_lines(buf, first, first, true, shown)
    for i = 0, #lines - 1 do
      compat.highlight(buf, chat.ns, 'AgentLspNote', first + i, 0, #indent)
      if hl then
        compat.highlight(buf, chat.ns, hl, first + i, #indent, -1)
      end
    end
  end)
  b.kind = nil
  return first
end

-- stream continues the block's last line while the kind stays the same.
local function stream(chat, b, kind, delta)
  local parts = vim.split(delta, '\n', { plain = true })
  local hl = kind == 'reasoning' and 'AgentLspReasoning' or nil
  if b.kind ~= kind then
    insert(chat, b, parts, hl)
    b.kind = kind
    return
  end
  chat.with_modifiable(function(buf)
    local row = row_of(buf, b.usage_mark) - 1
    local old = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
    vim.api.nvim_buf_set_text(buf, row, #old, row, #old, { parts[1] })
    if hl then
      compat.highlight(buf, chat.ns, hl, row, #indent, -1)
    end
  end)
  if #parts > 1 then
    insert(chat, b, vim.list_slice(parts, 2), hl)
    b.kind = kind
  end
end

local function set_status(chat, tool, status)
  local mark = chat_lines.status_marks[status] or { status, 'AgentLspTool' }
  chat.with_modifiable(function(buf)
    local row = row_of(buf, tool.mark)
    if not row then
      return
    end
    local old = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
    vim.api.nvim_buf_set_text(buf, row, #indent, row, #old, { tool.head .. '  ' .. mark[1] })
    compat.highlight(buf, chat.ns, 'AgentLspTool', row, #indent, #indent + #tool.head)
    compat.highlight(buf, chat.ns, mark[2], row, #indent + #tool.head, -1)
  end)
end

local function set_usage(chat, b)
  chat.with_modifiable(function(buf)
    local row = row_of(buf, b.usage_mark)
    local old = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
    -- Text, not the line: replacing the line would drop its mark.
    vim.api.nvim_buf_set_text(buf, row, 0, row, #old, { M.usage_text(b) })
    compat.highlight(buf, chat.ns, 'AgentLspNote', row, 0, -1)
  end)
end

---Shows one of a child's updates in its block (opened here when its task
---line is not in the chat: a chat opened while the child ran).
---@param chat table the chat module
---@param parent string the task call's toolCallId
---@param u table the update
function M.update(chat, parent, u)
  if not blocks[parent] then
    chat.add_lines({ '⚙ task' }, 'AgentLspTool')
    M.open(chat, parent)
  end
  local b = blocks[parent]
  if u.kind == 'text' or u.kind == 'reasoning' then
    stream(chat, b, u.kind, compat.str(u.text))
  elseif u.kind == 'tool_call' then
    local head = '⚙ ' .. tostring(u.name) .. ' ' .. chat_lines.describe_arguments(u.arguments)
    local row = insert(chat, b, { head })
    local tool = { head = head, running = true, mark = vim.api.nvim_buf_set_extmark(chat.buffer(), marks, row, 0, {}) }
    b.tools[compat.str(u.toolCallId)] = tool
    set_status(chat, tool, 'running')
  elseif u.kind == 'tool_result' then
    local tool = b.tools[compat.str(u.toolCallId)]
    if tool then
      tool.running = false
      set_status(chat, tool, u.status)
    end
  elseif u.kind == 'round_end' then
    local usage = compat.tbl(u.usage)
    for _, k in ipairs({ 'promptTokens', 'completionTokens', 'cachedTokens' }) do
      b.usage[k] = b.usage[k] + (tonumber(usage[k]) or 0)
    end
    local cost = compat.nonnull(u.cost)
    b.cost = (b.cost and cost) and b.cost + cost or nil
    b.calls = b.calls + 1
    set_usage(chat, b)
    statusline.set_totals(u.totals) -- the session's, children included
  elseif u.kind == 'error' then
    insert(chat, b, { '✗ ' .. compat.str(u.message) }, 'AgentLspError')
  end
end

---Settles the child tool lines still running when the prompt ended.
---@param chat table the chat module
---@param stop_reason string
function M.finish(chat, stop_reason)
  for _, b in pairs(blocks) do
    for _, tool in pairs(b.tools) do
      if tool.running then
        tool.running = false
        set_status(chat, tool, stop_reason == 'cancelled' and 'denied' or 'failed')
      end
    end
  end
end

---Forgets every block (the transcript was cleared or made anew).
---@param buf integer?
function M.forget(buf)
  if buf then
    vim.api.nvim_buf_clear_namespace(buf, marks, 0, -1)
  end
  blocks, tasks = {}, {}
end

return M
