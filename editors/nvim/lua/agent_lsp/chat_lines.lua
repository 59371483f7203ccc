-- The text of the chat's one-line entries: a tool call's arguments in
-- short, its status marks, a mention's line.
local compat = require('agent_lsp.compat')

local M = {}

-- describe_arguments is the short form of a tool call's arguments.
function M.describe_arguments(args)
  if type(args) ~= 'table' then
    return tostring(args or '')
  end
  local parts = {}
  if type(args.description) == 'string' and type(args.prompt) == 'string' then
    parts = { args.description } -- a task call: its subagent's lines follow it
  end
  for _, key in ipairs(#parts == 0 and { 'path', 'pattern', 'command', 'query' } or {}) do
    if type(args[key]) == 'string' then
      table.insert(parts, (key == 'command' and '$ ' or '') .. args[key])
    end
  end
  if #parts == 0 and compat.islist(args.items) then
    parts = { #args.items .. (#args.items == 1 and ' item' or ' items') } -- todo_write: the plan block shows them
  end
  if #parts == 0 then
    local ok, text = pcall(vim.json.encode, args)
    parts = { ok and text or '' }
  end
  local text = table.concat(parts, ' '):gsub('\n', ' ')
  if #text > 60 then
    text = text:sub(1, 57) .. '...'
  end
  return text
end

-- status_marks are a tool line's status texts and groups.
M.status_marks = {
  running = { '… running', 'AgentLspTool' },
  completed = { '✓ completed', 'AgentLspToolOk' },
  failed = { '✗ failed', 'AgentLspToolFailed' },
  denied = { '⊘ denied', 'AgentLspToolDenied' },
}

local mention_marks = {
  attached = { '📎', 'AgentLspNote' },
  missing = { '⚠', 'AgentLspToolDenied' },
  refused = { '⊘', 'AgentLspToolDenied' },
  failed = { '✗', 'AgentLspToolFailed' },
}

-- mention_line is the transcript line of a mention update.
function M.mention_line(u)
  local where = compat.str(u.path, '?')
  local first, last = compat.nonnull(u.startLine), compat.nonnull(u.endLine)
  if first then
    where = where .. '#L' .. first
    if last and last ~= first then
      where = where .. '-' .. last
    end
  end
  local mark = mention_marks[u.status] or { '?', 'AgentLspNote' }
  local text = mark[1] .. ' @' .. where .. ' ' .. tostring(u.status)
  local message = compat.str(u.message)
  if message ~= '' then
    text = text .. ': ' .. message
  end
  return text, mark[2]
end

return M
