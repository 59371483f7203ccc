-- Redraws the chat from a session's stored conversation (agent/transcript):
-- on :AgentSessions pick, and when the chat is reopened without its
-- transcript buffer (wiped, or a new one made). The entries go through the
-- chat's renderer of live updates (chat.update), so a redrawn chat reads
-- like the one that streamed.
local chat = require('agent_lsp.chat')
local compat = require('agent_lsp.compat')
local control = require('agent_lsp.control')

local M = {}

-- render replaces the chat's transcript with result's entries, plan, mode
-- and totals.
function M.render(result)
  chat.clear()
  for _, e in ipairs(compat.tbl(compat.get(result, 'entries'))) do
    if e.kind == 'user' then
      chat.user_prompt(compat.str(e.text))
    elseif e.kind == 'compacted' then
      local summary = vim.split(compat.str(e.summary), '\n', { plain = true })[1]
      chat.note('⟲ history compacted: ' .. summary)
    else
      chat.update(e, true)
    end
  end
  local items = compat.tbl(compat.get(result, 'plan'))
  if #items > 0 then
    chat.update({ kind = 'plan', items = items })
  end
  chat.set_totals(compat.get(result, 'totals'))
  chat.set_session_info({ mode = compat.get(result, 'mode') })
  chat.end_stream()
  chat.set_state('idle')
end

-- load fetches the transcript of st's session (st.session_id) and redraws
-- the chat from it, then calls done() if given.
function M.load(st, done)
  local id = st.session_id
  if not id then
    return
  end
  control.request(st, 'agent/transcript', { sessionId = id }, function(result)
    if st.session_id ~= id or st.running then
      return -- another session was picked, or a prompt started, meanwhile
    end
    M.render(result)
    if done then
      done()
    end
  end)
end

return M
