-- Which workspace root, and so which daemon and session, a command acts on:
-- the root of the buffer it runs from; run from the chat itself, the root
-- the chat belongs to (that of the buffer a command last ran from).
local chat = require('agent_lsp.chat')
local daemon = require('agent_lsp.daemon')

local M = {}

---The root the chat belongs to; nil until a command ran.
---@type string?
local chat_root = nil

---The root of the current buffer, or the chat's when it is the chat.
---@return string
function M.current()
  local bufnr = vim.api.nvim_get_current_buf()
  if chat.is_chat_buffer(bufnr) and chat_root then
    return chat_root
  end
  return daemon.root_of(bufnr)
end

---The current root's state, which the chat now belongs to.
---@return agent_lsp.State
function M.adopt_current()
  return M.adopt(M.current())
end

---Makes the chat belong to root and returns root's state.
---@param root string
---@return agent_lsp.State
function M.adopt(root)
  chat_root = root
  return daemon.state(root)
end

---The state of the chat's root (of the current root before any command):
---completion in the prompt line and on :AgentAsk's command line asks it.
---@return agent_lsp.State
function M.chat_state()
  return daemon.state(chat_root or M.current())
end

return M
