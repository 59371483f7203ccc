-- The chat: a transcript buffer (streaming text, dimmed reasoning, one line
-- per tool call whose status changes when its result arrives, the plan,
-- mentions, mode and model changes) above a one-line prompt buffer, in a
-- column on the right. The mode, the model, usage and cost of the last
-- model call go into the transcript window's status line.
local config = require('agent_lsp.config')
local chat_lines = require('agent_lsp.chat_lines')
local plan = require('agent_lsp.plan')
local statusline = require('agent_lsp.statusline')
local compat = require('agent_lsp.compat')

local M = {}

local ns = vim.api.nvim_create_namespace('agent_lsp_chat')
-- Positions (tool call lines) that must follow the lines above them when
-- the plan block above grows or shrinks.
local marks = vim.api.nvim_create_namespace('agent_lsp_chat_marks')

local chat = {
  buf = nil, -- transcript
  input = nil, -- prompt buffer
  kind = nil, -- kind of the last streamed line: 'text', 'reasoning' or nil
  tool_lines = {}, -- toolCallId -> { mark, head }
  status = { state = 'idle' },
}

-- M.submit(text) is called for a line typed in the prompt buffer; set by
-- the plugin.
M.submit = function() end

-- M.on_input(buf) is called for every prompt buffer made (completion); set
-- by the plugin.
M.on_input = function() end

function M.define_highlights()
  local links = {
    AgentLspReasoning = 'Comment',
    AgentLspUser = 'Title',
    AgentLspTool = 'Special',
    AgentLspToolOk = 'DiagnosticOk',
    AgentLspToolFailed = 'DiagnosticError',
    AgentLspToolDenied = 'DiagnosticWarn',
    AgentLspNote = 'NonText',
    AgentLspError = 'ErrorMsg',
    AgentLspProgress = 'DiagnosticInfo',
    AgentLspPlan = 'Label',
    AgentLspPlanActive = 'DiagnosticWarn',
    AgentLspPlanDone = 'Comment',
    AgentLspControl = 'Special',
  }
  if vim.fn.hlexists('DiagnosticOk') == 0 then
    links.AgentLspToolOk = 'String' -- DiagnosticOk is 0.9+
  end
  for group, target in pairs(links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

local function valid(buf)
  return buf ~= nil and vim.api.nvim_buf_is_valid(buf)
end

local function make_transcript()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, 'agent-lsp://chat')
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'agent_lsp_chat'
  vim.bo[buf].modifiable = false
  chat.buf, chat.kind, chat.tool_lines, chat.fresh = buf, nil, {}, true
  plan.forget_block()
  return buf
end

local function make_input()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, 'agent-lsp://prompt')
  vim.bo[buf].buftype = 'prompt'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.fn.prompt_setprompt(buf, 'Ask> ')
  vim.fn.prompt_setcallback(buf, function(text)
    -- Keep the prompt buffer to one line: the transcript holds the history.
    vim.schedule(function()
      if valid(buf) then
        vim.api.nvim_buf_set_lines(buf, 0, -1, false, {})
      end
    end)
    if vim.trim(text) ~= '' then
      M.submit(text)
    end
  end)
  chat.input = buf
  M.on_input(buf)
  return buf
end

function M.buffer()
  if not valid(chat.buf) then
    make_transcript()
  end
  return chat.buf
end

function M.input_buffer()
  if not valid(chat.input) then
    make_input()
  end
  return chat.input
end

local function window_of(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
end

-- resize fits the chat column to the editor's width again (VimResized).
function M.resize()
  local win = chat.buf and window_of(chat.buf)
  if win then
    vim.api.nvim_win_set_width(win, config.chat_width(vim.o.columns))
  end
end

function M.is_chat_buffer(bufnr)
  return bufnr == chat.buf or bufnr == chat.input
end

-- open shows the chat column (transcript above, prompt below) in the
-- current tab, or focuses it. enter: put the cursor in the prompt.
function M.open(enter)
  local opts = config.options.chat
  local buf, input = M.buffer(), M.input_buffer()
  local win = window_of(buf)
  local current = vim.api.nvim_get_current_win()
  if not win then
    vim.cmd('botright vsplit')
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_win_set_width(win, config.chat_width(vim.o.columns, opts))
    for option, value in pairs({
      wrap = true,
      linebreak = true,
      number = false,
      relativenumber = false,
      signcolumn = 'no',
      winfixwidth = true,
    }) do
      vim.wo[win][option] = value
    end
  end
  local input_win = window_of(input)
  if not input_win then
    vim.api.nvim_set_current_win(win)
    vim.cmd('belowright split')
    input_win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(input_win, input)
    vim.api.nvim_win_set_height(input_win, opts.input_height)
    vim.wo[input_win].winfixheight = true
    vim.wo[input_win].number = false
    vim.wo[input_win].relativenumber = false
    vim.wo[input_win].statusline = ' agent-lsp: Enter sends, /<C-x><C-o> commands, @ files'
  end
  M.refresh_statusline()
  M.scroll()
  if enter then
    vim.api.nvim_set_current_win(input_win)
    vim.cmd('startinsert!')
  elseif vim.api.nvim_win_is_valid(current) then
    vim.api.nvim_set_current_win(current)
  end
end

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
  chat.kind = nil
  return first
end

-- ns is the namespace of the transcript's highlights.
M.ns = ns

-- end_stream makes the next delta start a new line (the last line is no
-- longer streamed text).
function M.end_stream()
  chat.kind = nil
end

function M.scroll()
  local buf = chat.buf
  if not valid(buf) then
    return
  end
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
    if chat.kind == kind then
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
  chat.kind = kind
end

local function set_tool_status(id, status)
  local entry = chat.tool_lines[id]
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

-- status_text is the chat's status line for a window `width` columns wide
-- (nil: everything).
local function status_text(width)
  return statusline.text(chat.status, width)
end

-- status_text is the whole status text (the statusline() component),
-- with extra fields ({completion?}) on top of the chat's.
function M.status_text(extra)
  if extra and next(extra) then
    return statusline.text(vim.tbl_extend('force', chat.status, extra))
  end
  return status_text()
end

-- window_statusline is the chat window's 'statusline' (%!): fitted to the
-- window it is drawn for, so a narrow chat keeps its state and mode.
function M.window_statusline()
  local win = vim.g.statusline_winid
  local ok, width = pcall(vim.api.nvim_win_get_width, win or 0)
  return status_text(ok and width or nil)
end

function M.refresh_statusline()
  local win = chat.buf and window_of(chat.buf)
  if win then
    -- Set again at each change: that redraws the status line.
    vim.wo[win].statusline = "%!v:lua.require'agent_lsp.chat'.window_statusline()"
  end
end

function M.set_state(state)
  chat.status.state = state
  M.refresh_statusline()
end

-- status returns the status shown: state, mode, model (strings or nil).
function M.status()
  return { state = chat.status.state, mode = chat.status.mode, model = chat.status.model }
end

-- set_session_info shows a session's mode and model ({mode?, model?}) in
-- the status line.
function M.set_session_info(info)
  chat.status.mode = compat.nonnull(info.mode) or chat.status.mode
  chat.status.model = compat.nonnull(info.model) or chat.status.model
  M.refresh_statusline()
end

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
  if u.kind == 'text' or u.kind == 'reasoning' then
    stream(u.kind, compat.str(u.text))
    M.set_state(u.kind == 'text' and 'answering' or 'thinking')
  elseif u.kind == 'tool_call' then
    local head = '⚙ ' .. tostring(u.name) .. ' ' .. chat_lines.describe_arguments(u.arguments)
    local line = M.add_lines({ head })
    local mark = vim.api.nvim_buf_set_extmark(M.buffer(), marks, line, 0, {})
    chat.tool_lines[compat.str(u.toolCallId)] = { mark = mark, head = head }
    set_tool_status(compat.str(u.toolCallId), 'running')
    M.set_state('running ' .. tostring(u.name))
  elseif u.kind == 'tool_result' then
    set_tool_status(compat.str(u.toolCallId), u.status)
    M.set_state('thinking')
  elseif u.kind == 'round_end' then
    chat.status.usage, chat.status.cost, chat.status.totals = u.usage, u.cost, u.totals
    M.refresh_statusline()
  elseif u.kind == 'compacted' then
    chat.status.totals = u.totals or chat.status.totals
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

-- finish ends a turn: a line for anything but a normal end.
function M.finish(stop_reason, message)
  if stop_reason and stop_reason ~= 'end_turn' then
    local text = '⊘ ' .. stop_reason
    if message and message ~= '' then
      text = text .. ': ' .. message
    end
    M.note(text, stop_reason == 'cancelled' and 'AgentLspToolDenied' or 'AgentLspError')
  end
  M.set_state('idle')
end

-- clear empties the transcript (it is about to be redrawn from a stored
-- session) and forgets the plan shown.
function M.clear()
  M.with_modifiable(function(buf)
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    vim.api.nvim_buf_clear_namespace(buf, marks, 0, -1)
    vim.api.nvim_buf_set_lines(buf, 0, -1, true, {})
  end)
  chat.kind, chat.tool_lines = nil, {}
  plan.forget()
end

-- set_totals shows a session's totals ({cost, ...}) in the status line.
function M.set_totals(totals)
  if type(totals) == 'table' then
    chat.status.totals = totals
    M.refresh_statusline()
  end
end

-- fresh reports whether the transcript buffer was made since the last call
-- (the chat was wiped): its session's transcript must be redrawn.
function M.fresh()
  local was = chat.fresh
  chat.fresh = false
  return was
end

-- reset_status forgets the usage shown (another session was picked).
function M.reset_status()
  chat.status = { state = 'idle' }
  plan.forget()
  M.refresh_statusline()
end

return M
