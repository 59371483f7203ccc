-- The chat window's status line: the state and mode, the model, the last
-- model call's usage and the session's cost, fitted to a width.
local M = {}

-- short_number is a token count for the status line (12.3k).
function M.short_number(n)
  n = tonumber(n) or 0
  if n >= 10000 then
    return string.format('%.1fk', n / 1000)
  end
  return tostring(n)
end

-- text is the chat's status line, for the status s ({state, mode?, model?,
-- usage?, cost?, totals?, completion?}) and a window `width` columns wide
-- (nil: everything), with % escaped. The state and the mode always show;
-- what does not fit goes: the last call's usage first, then the
-- "agent-lsp:" label, the session's cost, the model.
function M.text(s, width)
  local label = 'agent-lsp: '
  local head = s.state
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
    totals = string.format('session $%.4f', tonumber(s.totals.cost) or 0)
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

return M
