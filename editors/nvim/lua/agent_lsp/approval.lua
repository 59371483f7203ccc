-- Approvals for agent-lsp's client (other servers keep Neovim's handlers).
-- agent/approve (docs/protocol.md) carries the action as data: the plugin
-- shows the command, or the edit's hunks as a unified diff, in a float
-- while vim.ui.select offers the request's options, and answers the id of
-- the option chosen. A window/showMessageRequest (the workspace trust
-- popup, or a daemon without agent/approve) is a plain vim.ui.select over
-- its actions: its text is shown, never read.
local await = require('agent_lsp.await')
local compat = require('agent_lsp.compat')

local M = {}

---An answer agent/approve offers.
---@class agent_lsp.ApproveOption
---@field id string what the answer names
---@field title string what the picker shows
---@field kind 'allow_once'|'allow_session'|'deny'

---The agent/approve request.
---@class agent_lsp.ApproveRequest
---@field sessionId string
---@field toolCallId string
---@field tool string
---@field risk string
---@field reasons string[]
---@field summary string
---@field command string? run_bash's command, exactly what runs
---@field visibleCommand string? the command as shown: hidden characters written visibly
---@field path string? the file the action touches
---@field uri string?
---@field hunks table[]? an edit's hunks {id, startLine, endLine, oldText, newText, diff}
---@field options agent_lsp.ApproveOption[]

---What the approval float shows.
---@class agent_lsp.ApprovalView
---@field lines string[]
---@field filetype string
---@field title string

-- risk is the request's risk as the popup and the review float write it
-- (HIGH): agent/approve sends it in lower case.
local function risk(p)
  return string.upper(compat.str(p.risk, '?'))
end

---The line the picker asks with.
---@param p agent_lsp.ApproveRequest
---@return string
function M.question(p)
  return string.format(
    'agent-lsp wants to run %s (risk %s): %s',
    compat.str(p.tool, '?'),
    risk(p),
    compat.str(p.summary)
  )
end

-- why is the line of the reasons for the risk, or nil.
local function why(p)
  local reasons = vim.tbl_map(tostring, compat.tbl(p.reasons))
  if #reasons == 0 then
    return nil
  end
  return 'Why ' .. risk(p) .. ': ' .. table.concat(reasons, '; ')
end

---An edit's hunks as one unified diff: the file's header, then each hunk
---as the daemon wrote it (@@ line and up to 3 lines of context).
---@param p agent_lsp.ApproveRequest
---@return string[]
function M.diff_lines(p)
  local path = compat.str(p.path, '?')
  local lines = { '--- a/' .. path, '+++ b/' .. path }
  for _, hunk in ipairs(compat.tbl(p.hunks)) do
    local diff = vim.split(compat.str(hunk.diff), '\n', { plain = true })
    if diff[#diff] == '' then
      table.remove(diff)
    end
    vim.list_extend(lines, diff)
  end
  return lines
end

---The float for a request: an edit's diff, or the question with the
---command and the reasons; nil when there is nothing to show besides the
---question.
---@param p agent_lsp.ApproveRequest
---@return agent_lsp.ApprovalView?
function M.view(p)
  local reason = why(p)
  if #compat.tbl(p.hunks) > 0 then
    local lines = M.diff_lines(p)
    if reason then
      table.insert(lines, reason)
    end
    return { lines = lines, filetype = 'diff', title = 'agent-lsp: proposed edit' }
  end
  local lines = { M.question(p) }
  -- visibleCommand is what the user reads: command, what runs, may hold a
  -- carriage return or a bidi override that shows other text.
  local command = compat.str(p.visibleCommand) ~= '' and p.visibleCommand or compat.str(p.command)
  if command ~= '' then
    table.insert(lines, '$ ' .. command)
  end
  if reason then
    table.insert(lines, reason)
  end
  if #lines == 1 then
    return nil
  end
  return { lines = lines, filetype = 'text', title = 'agent-lsp: approval' }
end

-- deny is the answer that denies: the deny option when offered, else
-- null (which the daemon reads as Deny too).
local function deny(options)
  for _, o in ipairs(options) do
    if o.kind == 'deny' and type(o.id) == 'string' then
      return { optionId = o.id }
    end
  end
  return vim.NIL
end

-- select asks with vim.ui.select over items (shown by title) and returns
-- the item chosen, or nil; ok is false when the picker failed.
local function select(items, prompt, title)
  vim.cmd('redraw')
  return pcall(await.await, function(done)
    vim.ui.select(items, { prompt = prompt, kind = 'agent_lsp_approval', format_item = title }, done)
  end)
end

---Answers agent/approve: {optionId} of the option chosen; closing the
---picker (or a failure) answers the deny option.
---@param params agent_lsp.ApproveRequest
---@return { optionId: string }|userdata
function M.approve(_, params)
  if type(params) ~= 'table' then
    return vim.NIL
  end
  local options = vim.tbl_filter(function(o)
    return type(o) == 'table' and type(o.id) == 'string'
  end, compat.tbl(params.options))
  local view = M.view(params)
  local win
  if view then
    win = (require('agent_lsp.float').open(view.lines, { filetype = view.filetype, title = view.title }))
  end
  local ok, choice = select(options, M.question(params), function(o)
    return compat.str(o.title, o.id)
  end)
  if win and vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_win_close(win, true)
  end
  if not ok then
    vim.notify('agent-lsp: approval failed, denying: ' .. tostring(choice), vim.log.levels.WARN)
    return deny(options)
  end
  if type(choice) == 'table' then
    return { optionId = choice.id }
  end
  return deny(options)
end

---Answers window/showMessageRequest: the message as the picker's prompt,
---the actions as its items; the chosen MessageActionItem, or vim.NIL
---(null: the daemon reads it as Deny).
function M.show_message_request(_, params)
  params = compat.tbl(params)
  local actions = vim.tbl_filter(function(a)
    return type(a) == 'table' and type(a.title) == 'string'
  end, compat.tbl(params.actions))
  local ok, choice = select(actions, compat.str(params.message), function(a)
    return a.title
  end)
  if not ok then
    vim.notify('agent-lsp: popup failed, answering none: ' .. tostring(choice), vim.log.levels.WARN)
    return vim.NIL
  end
  if type(choice) == 'table' then
    return choice
  end
  return vim.NIL
end

return M
