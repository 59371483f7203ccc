-- Progress of an inline prompt, shown as virtual text at the end of the
-- selection's first line: Thinking, Running <tool>, Waiting for approval,
-- then the outcome for a few seconds.
local M = {}

M.ns = vim.api.nvim_create_namespace('agent_lsp_inline')

---Where an inline prompt's progress shows: virtual text on a line.
---@class agent_lsp.Marker
---@field bufnr integer
---@field line integer 0-based, where it was put (the extmark follows edits)
---@field id integer? its extmark, once shown
---@field text string? the text shown

-- show sets the progress text of a marker {bufnr, line, id}.
function M.show(marker, text, hl, icon)
  if not marker or not vim.api.nvim_buf_is_valid(marker.bufnr) then
    return
  end
  local line = marker.line
  if marker.id then
    local pos = vim.api.nvim_buf_get_extmark_by_id(marker.bufnr, M.ns, marker.id, {})
    if pos and pos[1] then
      line = pos[1]
    end
  end
  line = math.min(line, vim.api.nvim_buf_line_count(marker.bufnr) - 1)
  marker.id = vim.api.nvim_buf_set_extmark(marker.bufnr, M.ns, line, 0, {
    id = marker.id,
    virt_text = { { '  ' .. (icon or '⟳') .. ' agent-lsp: ' .. text, hl or 'AgentLspProgress' } },
    virt_text_pos = 'eol',
  })
  marker.text = text
end

-- done shows the outcome, then clears the marker.
function M.done(marker, text, hl, icon)
  if not marker then
    return
  end
  M.show(marker, text, hl, icon)
  vim.defer_fn(function()
    if marker.id and vim.api.nvim_buf_is_valid(marker.bufnr) then
      pcall(vim.api.nvim_buf_del_extmark, marker.bufnr, M.ns, marker.id)
    end
  end, 4000)
end

return M
