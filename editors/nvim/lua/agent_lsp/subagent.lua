-- :AgentSubagent: the whole conversation of a subagent the chat shows,
-- picked among the session's task calls (vim.ui.select), in a scratch
-- buffer (agent/transcript with the task call's id as parentToolCallId).
local chat_children = require('agent_lsp.chat_children')
local compat = require('agent_lsp.compat')
local daemon = require('agent_lsp.daemon')

local M = {}

local function add(out, prefix, text)
  for _, line in ipairs(vim.split(compat.str(text), '\n', { plain = true })) do
    table.insert(out, prefix .. line)
  end
end

---The buffer's lines for a child's agent/transcript answer (pure).
---@param result table
---@param title string the task's description
---@return string[]
function M.lines(result, title)
  local out = { 'Subagent: ' .. (title ~= '' and title or 'task'), '' }
  for _, e in ipairs(compat.tbl(compat.get(result, 'entries'))) do
    if e.kind == 'user' then
      add(out, '▶ ', e.text)
      table.insert(out, '')
    elseif e.kind == 'text' then
      add(out, '', e.text)
    elseif e.kind == 'reasoning' then
      add(out, '  ', e.text)
    elseif e.kind == 'tool_call' then
      table.insert(
        out,
        '⚙ ' .. compat.str(e.name) .. ' ' .. require('agent_lsp.chat_lines').describe_arguments(e.arguments)
      )
    elseif e.kind == 'tool_result' then
      table.insert(out, '  → ' .. compat.str(e.status))
      add(out, '    ', e.output)
    end
  end
  return out
end

local function show(lines)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
  for option, value in pairs({ buftype = 'nofile', bufhidden = 'wipe', swapfile = false, modifiable = false }) do
    vim.bo[buf][option] = value
  end
  pcall(vim.api.nvim_buf_set_name, buf, 'agent-lsp://subagent')
end

---Picks a task call of the chat and shows its subagent's conversation.
---@param st agent_lsp.State
function M.open(st)
  local tasks = chat_children.tasks()
  local client = daemon.client(st)
  if #tasks == 0 or not client or not st.session_id then
    vim.notify('agent-lsp: no subagent in the chat', vim.log.levels.INFO)
    return
  end
  vim.ui.select(tasks, {
    prompt = 'Subagent',
    format_item = function(t)
      return t.description ~= '' and t.description or t.id
    end,
  }, function(task)
    if not task then
      return
    end
    local params = { sessionId = st.session_id, parentToolCallId = task.id }
    compat.request(client, 'agent/transcript', params, function(err, result)
      if err then
        vim.notify('agent-lsp: ' .. tostring(err.message), vim.log.levels.ERROR)
        return
      end
      show(M.lines(result, task.description))
    end)
  end)
end

return M
