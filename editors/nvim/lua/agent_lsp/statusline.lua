-- The chat window's status line: what it shows (the state and mode, the
-- model, the last model call's usage and the session's cost), that text
-- fitted to a width, and its redraw in the transcript's window.
local chat_window = require('agent_lsp.chat_window')
local compat = require('agent_lsp.compat')

local M = {}

---What the chat's status line shows.
---@class agent_lsp.ChatStatus
---@field state string idle, thinking, answering, running <tool>, waiting for approval, …
---@field mode string? the session's mode
---@field model string? the session's model
---@field usage table? the last model call's usage {promptTokens, cachedTokens, completionTokens}
---@field cost number? the last model call's cost in dollars
---@field totals table? the session's totals {cost, …}
---@field spend table? the spend against the caps (round_end's spend: {sessionCapUsd?, tokenCap?, sessionTokens, …})
---@field completion string? the inline completion's part (statusline() only)
---@field queued integer? how many messages wait in the session's queue

---@type agent_lsp.ChatStatus
local status = { state = 'idle' }

---A token count for the status line (12.3k).
---@param n number?
---@return string
function M.short_number(n)
  n = tonumber(n) or 0
  if n >= 10000 then
    return string.format('%.1fk', n / 1000)
  end
  return tostring(n)
end

---The chat's status line for the status s and a window `width` columns
---wide (nil: everything), with % escaped. The state and the mode always
---show; what does not fit goes: the last call's usage first, then the
---"agent-lsp:" label, the session's cost, the model.
---@param s agent_lsp.ChatStatus
---@param width integer?
---@return string
function M.text(s, width)
  local label = 'agent-lsp: '
  local head = s.state
  if s.queued and s.queued > 0 then
    head = head .. ' │ ' .. s.queued .. ' queued'
  end
  if s.mode then
    head = head .. ' │ mode ' .. s.mode
  end
  if s.completion then
    head = head .. ' │ ' .. s.completion
  end
  local model, usage, totals = s.model, nil, nil
  if s.usage then
    usage = string.format(
      'in %s (%s cached) out %s $%.4f',
      M.short_number(s.usage.promptTokens),
      M.short_number(s.usage.cachedTokens),
      M.short_number(s.usage.completionTokens),
      tonumber(s.cost) or 0
    )
  end
  if s.totals then
    totals = string.format('session $%.4f', tonumber(s.totals.cost) or 0) .. M.cap_text(s.spend)
  end
  local function join()
    local parts = { label .. head }
    for _, p in ipairs({ model or false, usage or false, totals or false }) do
      if p then
        table.insert(parts, p)
      end
    end
    return ' ' .. table.concat(parts, ' │ ')
  end
  local line = join()
  if width then
    for _, drop in ipairs({ 'usage', 'label', 'totals', 'model' }) do
      if vim.fn.strdisplaywidth(line) <= width then
        break
      end
      if drop == 'usage' then
        usage = nil
      elseif drop == 'label' then
        label = ''
      elseif drop == 'model' then
        model = nil
      else
        totals = nil
      end
      line = join()
    end
  end
  return (line:gsub('%%', '%%%%'))
end

---The whole status text (the statusline() component), with extra fields
---({completion?}) on top of the chat's.
---@param extra { completion: string? }?
---@return string
function M.status_text(extra)
  if extra and next(extra) then
    return M.text(vim.tbl_extend('force', status, extra))
  end
  return M.text(status)
end

---The chat window's 'statusline' (%!): fitted to the window it is drawn
---for, so a narrow chat keeps its state and mode.
---@return string
function M.window_statusline()
  local win = vim.g.statusline_winid
  local ok, width = pcall(vim.api.nvim_win_get_width, win or 0)
  return M.text(status, ok and width or nil)
end

---Redraws the status line of the transcript's window, if shown.
function M.refresh()
  local win = chat_window.transcript_window()
  if win then
    -- Set again at each change: that redraws the status line.
    vim.wo[win].statusline = "%!v:lua.require'agent_lsp.statusline'.window_statusline()"
  end
end

---Shows the chat's state (idle, thinking, …).
---@param state string
function M.set_state(state)
  status.state = state
  M.refresh()
end

---The status shown: state, mode, model.
---@return { state: string, mode: string?, model: string? }
function M.status()
  return { state = status.state, mode = status.mode, model = status.model }
end

---Shows a session's mode and model (absent or null ones are kept).
---@param info { mode: string?, model: string? }
function M.set_session_info(info)
  status.mode = compat.nonnull(info.mode) or status.mode
  status.model = compat.nonnull(info.model) or status.model
  M.refresh()
end

---Shows a model call's usage and cost and the session's totals (a
---round_end update).
---@param usage table?
---@param cost number?
---@param totals table?
function M.set_round(usage, cost, totals)
  status.usage, status.cost, status.totals = usage, cost, totals
  M.refresh()
end

---Shows a session's totals ({cost, ...}); anything but a table keeps them.
---@param totals any
function M.set_totals(totals)
  if type(totals) == 'table' then
    status.totals = totals
    M.refresh()
  end
end

---The session's cap after its cost (" of $1.00"), or its token cap for a
---model without a price; "" without a cap.
---@param spend table?
---@return string
function M.cap_text(spend)
  if type(spend) ~= 'table' then
    return ''
  end
  if tonumber(spend.sessionCapUsd) then
    return string.format(' of $%.2f', tonumber(spend.sessionCapUsd))
  end
  if tonumber(spend.tokenCap) then
    return string.format(' (%s of %s tok cap)', M.short_number(spend.sessionTokens), M.short_number(spend.tokenCap))
  end
  return ''
end

---Shows the spend against the caps (round_end's and compacted's spend,
---present when a cap is set) and each warning once.
---@param spend any
function M.set_spend(spend)
  if type(spend) ~= 'table' then
    return
  end
  status.spend = spend
  for _, w in ipairs(type(spend.warnings) == 'table' and spend.warnings or {}) do
    vim.notify('agent-lsp: ' .. tostring(w), vim.log.levels.WARN)
  end
end

---Shows how many messages wait in the session's queue.
---@param n integer
function M.set_queued(n)
  status.queued = n
  M.refresh()
end

---Forgets everything shown but the idle state (another session was picked).
function M.reset()
  status = { state = 'idle' }
  M.refresh()
end

return M
