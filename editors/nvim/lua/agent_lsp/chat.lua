-- The chat's transcript: streaming text, dimmed reasoning, one line per
-- tool call whose status changes when its result arrives, the plan,
-- mentions, mode and model changes, steer messages where they reached the
-- turn; a subagent's progress indented under its task call
-- (chat_children.lua) and the waiting messages at the end (chat_queue.lua). Its buffers and windows are
-- chat_window.lua's, its status line (the mode, the model, usage and cost
-- of the last model call) statusline.lua's; this module is the face of all
-- three to the rest of the plugin.
local chat_children = require('agent_lsp.chat_children')
local chat_lines = require('agent_lsp.chat_lines')
local chat_queue = require('agent_lsp.chat_queue')
local chat_window = require('agent_lsp.chat_window')
local plan = require('agent_lsp.plan')
local statusline = require('agent_lsp.statusline')
local compat = require('agent_lsp.compat')

local M = {}

local ns = vim.api.nvim_create_namespace('agent_lsp_chat')
-- Positions (tool call lines) that must follow the lines above them when
-- the plan block above grows or shrinks.
local marks = vim.api.nvim_create_namespace('agent_lsp_chat_marks')

---A tool call's line in the transcript.
---@class agent_lsp.ToolLine
---@field mark integer the extmark (in the marks namespace) on its line
---@field head string the line's text before the status

---The transcript's state, reset with each new transcript buffer.
---@class agent_lsp.Transcript
---@field kind 'text'|'reasoning'|nil kind of the last streamed line (nil: the next delta starts a line)
---@field tool_lines table<string, agent_lsp.ToolLine> by toolCallId
local transcript = { kind = nil, tool_lines = {} }

---The transcript buffer, made when there is none (a new one starts with
---no streamed line, no tool lines and no plan block).
---@return integer
function M.buffer()
  local buf, made = chat_window.transcript()
  if made then
    transcript.kind, transcript.tool_lines = nil, {}
    plan.forget_block()
    chat_children.forget(nil)
  end
  return buf
end

---Shows the chat column (transcript above, prompt below) in the current
---tab, or focuses it.
---@param enter boolean put the cursor in the prompt
function M.open(enter)
  M.buffer()
  local shown = chat_window.show()
  statusline.refresh()
  M.scroll()
  chat_window.focus(shown, enter)
end

M.resize = chat_window.resize
M.is_chat_buffer = chat_window.is_chat_buffer
M.fresh = chat_window.fresh
M.status_text = statusline.status_text
M.set_state = statusline.set_state
M.status = statusline.status
M.set_session_info = statusline.set_session_info
M.set_totals = statusline.set_totals

-- with_modifiable runs fn with the transcript writable.
function M.with_modifiable(fn)
  local buf = M.buffer()
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn, buf)
  vim.bo[buf].modifiable = false
  if not ok then
    error(err)
  end
end

local function last_line(buf)
  return vim.api.nvim_buf_line_count(buf) - 1
end

local function is_empty(buf)
  return vim.api.nvim_buf_line_count(buf) == 1 and vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1] == ''
end

-- add_lines appends whole lines, each highlighted with hl (or nil), and
-- returns the index of the first.
function M.add_lines(lines, hl)
  local first
  M.with_modifiable(function(buf)
    if is_empty(buf) then
      first = 0
      vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
    else
      first = last_line(buf) + 1
      vim.api.nvim_buf_set_lines(buf, -1, -1, true, lines)
    end
    if hl then
      for i = 0, #lines - 1 do
        compat.highlight(buf, ns, hl, first + i, 0, -1)
      end
    end
  end)
  transcript.kind = nil
  return first
end

-- ns is the namespace of the transcript's highlights.
M.ns = ns

-- end_stream makes the next delta start a new line (the last line is no
-- longer streamed text).
function M.end_stream()
  transcript.kind = nil
end

-- scroll shows the transcript's end in its windows (but the current one).
function M.scroll()
  local buf = chat_window.existing_transcript()
  if not buf then
    return
  end
  chat_queue.draw(buf)
  local last = vim.api.nvim_buf_line_count(buf)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf and win ~= vim.api.nvim_get_current_win() then
      vim.api.nvim_win_set_cursor(win, { last, 0 })
    end
  end
end

-- stream appends a text or reasoning delta: it continues the last line
-- while the kind stays the same.
local function stream(kind, delta)
  local hl = kind == 'reasoning' and 'AgentLspReasoning' or nil
  M.with_modifiable(function(buf)
    local parts = vim.split(delta, '\n', { plain = true })
    local row
    if transcript.kind == kind then
      row = last_line(buf)
      local current = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
      parts[1] = current .. parts[1]
      vim.api.nvim_buf_set_lines(buf, row, row + 1, true, parts)
    elseif is_empty(buf) then
      row = 0
      vim.api.nvim_buf_set_lines(buf, 0, -1, true, parts)
    else
      row = last_line(buf) + 1
      vim.api.nvim_buf_set_lines(buf, -1, -1, true, parts)
    end
    if hl then
      for i = row, row + #parts - 1 do
        compat.highlight(buf, ns, hl, i, 0, -1)
      end
    end
  end)
  transcript.kind = kind
end

local function set_tool_status(id, status)
  local entry = transcript.tool_lines[id]
  if not entry then
    return
  end
  local mark = chat_lines.status_marks[status] or { status, 'AgentLspTool' }
  M.with_modifiable(function(buf)
    local row = vim.api.nvim_buf_get_extmark_by_id(buf, marks, entry.mark, {})[1]
    if not row then
      return
    end
    local text = entry.head .. '  ' .. mark[1]
    -- Text, not the line: replacing whole lines would move the marks.
    local old = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
    vim.api.nvim_buf_set_text(buf, row, 0, row, #old, { text })
    compat.highlight(buf, ns, 'AgentLspTool', row, 0, #entry.head)
    compat.highlight(buf, ns, mark[2], row, #entry.head, -1)
  end)
end

local short_number = statusline.short_number

-- user_prompt starts a turn in the transcript.
function M.user_prompt(text, where)
  if not is_empty(M.buffer()) then
    M.add_lines({ '' })
  end
  local lines = vim.split('▶ ' .. text, '\n', { plain = true })
  if where then
    lines[1] = lines[1] .. '   (' .. where .. ')'
  end
  M.add_lines(lines, 'AgentLspUser')
  M.add_lines({ '' })
  plan.forget_block()
  M.scroll()
end

function M.note(text, hl)
  M.add_lines(vim.split(text, '\n', { plain = true }), hl or 'AgentLspNote')
  M.scroll()
end

-- answer adds a whole answer (a slash command's message) as plain lines.
function M.answer(text)
  M.add_lines(vim.split(text, '\n', { plain = true }))
  M.scroll()
end

-- control_update shows a mode or model change: always in the status line,
-- in the transcript unless quiet (a slash command's answer says it).
local function control_update(u, quiet)
  if u.kind == 'mode' then
    M.set_session_info({ mode = u.mode })
    if not quiet then
      M.note('◆ mode: ' .. tostring(u.mode), 'AgentLspControl')
    end
  else
    M.set_session_info({ model = u.model })
    if not quiet then
      M.note(string.format('◆ model: %s (%s)', tostring(u.model), tostring(u.provider)), 'AgentLspControl')
    end
  end
end

-- update renders one agent/update notification. quiet: leave mode and
-- model changes out of the transcript.
function M.update(u, quiet)
  local parent = compat.str(u.parentToolCallId)
  if parent ~= '' then
    chat_children.update(M, parent, u)
    M.scroll()
    return
  end
  if u.kind == 'text' or u.kind == 'reasoning' then
    stream(u.kind, compat.str(u.text))
    M.set_state(u.kind == 'text' and 'answering' or 'thinking')
  elseif u.kind == 'tool_call' then
    local head = '⚙ ' .. tostring(u.name) .. ' ' .. chat_lines.describe_arguments(u.arguments)
    local line = M.add_lines({ head })
    local mark = vim.api.nvim_buf_set_extmark(M.buffer(), marks, line, 0, {})
    transcript.tool_lines[compat.str(u.toolCallId)] = { mark = mark, head = head }
    set_tool_status(compat.str(u.toolCallId), 'running')
    if u.name == 'task' then
      chat_children.open(M, compat.str(u.toolCallId), compat.str(compat.get(u.arguments, 'description')))
    end
    M.set_state('running ' .. tostring(u.name))
  elseif u.kind == 'tool_result' then
    set_tool_status(compat.str(u.toolCallId), u.status)
    M.set_state('thinking')
  elseif u.kind == 'round_end' then
    statusline.set_round(u.usage, u.cost, u.totals)
    statusline.set_spend(u.spend)
  elseif u.kind == 'compacted' then
    statusline.set_totals(u.totals)
    statusline.set_spend(u.spend)
    M.note(
      string.format(
        '⟲ history compacted: %s → %s tokens',
        short_number(u.beforeTokens),
        short_number(u.afterTokens)
      )
    )
  elseif u.kind == 'error' then
    M.note('✗ ' .. tostring(u.message), 'AgentLspError')
  elseif u.kind == 'plan' then
    plan.render(M, compat.tbl(u.items))
  elseif u.kind == 'mode' or u.kind == 'model' then
    control_update(u, quiet)
  elseif u.kind == 'mention' then
    local text, hl = chat_lines.mention_line(u)
    M.note(text, hl)
  end
  M.scroll()
end

-- steer shows a steer message where it reached the running turn.
function M.steer(text)
  M.add_lines(vim.split('↪ ' .. text .. '   (steer)', '\n', { plain = true }), 'AgentLspUser')
  M.scroll()
end

-- set_queue shows the session's waiting messages at the chat's end and
-- their count in the status line.
function M.set_queue(items)
  chat_queue.set(items)
  statusline.set_queued(#items)
  M.scroll()
end

-- finish ends a turn: a line for anything but a normal end.
function M.finish(stop_reason, message)
  if stop_reason and stop_reason ~= 'end_turn' then
    local text = '⊘ ' .. stop_reason
    if message and message ~= '' then
      text = text .. ': ' .. message
    end
    M.note(text, stop_reason == 'cancelled' and 'AgentLspToolDenied' or 'AgentLspError')
  end
  chat_children.finish(M, stop_reason)
  M.set_state('idle')
end

-- clear empties the transcript (it is about to be redrawn from a stored
-- session) and forgets the plan shown.
function M.clear()
  M.with_modifiable(function(buf)
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    vim.api.nvim_buf_clear_namespace(buf, marks, 0, -1)
    chat_children.forget(buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, true, {})
  end)
  transcript.kind, transcript.tool_lines = nil, {}
  plan.forget()
end

-- reset_status forgets the usage shown (another session was picked).
function M.reset_status()
  plan.forget()
  statusline.reset()
end

return M
