-- The session's waiting messages at the chat's end: virtual lines (not
-- text of the transcript: they go when the message starts or is
-- delivered, and a redraw of the transcript does not keep them) below its
-- last line, dimmed, each saying how it waits. Drawn again after every
-- change of the chat, so they stay at its end.
local M = {}

local ns = vim.api.nvim_create_namespace('agent_lsp_chat_queue')

---@type { id: string, prompt: string, delivery: string }[]
local items = {}

---The virtual lines of the waiting messages (pure: the tests read it).
---@param list { prompt: string, delivery: string }[]
---@return table[] chunks per line, as virt_lines takes them
function M.lines(list)
  if #list == 0 then
    return {}
  end
  local out =
    { { { string.format('── %d waiting (:AgentQueue edits or removes) ──', #list), 'AgentLspQueued' } } }
  for _, item in ipairs(list) do
    local label = item.delivery == 'steer' and '↪ steer, at the next safe point: ' or '⋯ queued: '
    local text = tostring(item.prompt):gsub('\n', ' ')
    table.insert(out, { { label .. text, 'AgentLspQueued' } })
  end
  return out
end

---Draws the waiting messages below the last line of buf.
---@param buf integer
function M.draw(buf)
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  local lines = M.lines(items)
  if #lines == 0 then
    return
  end
  local last = vim.api.nvim_buf_line_count(buf) - 1
  vim.api.nvim_buf_set_extmark(buf, ns, last, 0, { virt_lines = lines })
end

---Sets the waiting messages (a queue update); draw() shows them.
---@param list { id: string, prompt: string, delivery: string }[]
function M.set(list)
  items = list
end

---The waiting messages drawn (for the status and tests).
---@return { id: string, prompt: string, delivery: string }[]
function M.items()
  return items
end

M.ns = ns

return M
