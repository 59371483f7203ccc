-- :AgentSessions (pick a session to continue in the chat) and :AgentTools
-- (the daemon's tools in a scratch buffer).
local chat = require('agent_lsp.chat')
local control = require('agent_lsp.control')
local daemon = require('agent_lsp.daemon')
local compat = require('agent_lsp.compat')
local transcript = require('agent_lsp.transcript')

local M = {}

local function request(st, method, cb)
  daemon.ensure(st, function(client, err)
    if not client then
      vim.notify('agent-lsp: ' .. tostring(err), vim.log.levels.ERROR)
      return
    end
    compat.request(client, method, vim.empty_dict(), function(rpc_err, result)
      if rpc_err then
        vim.notify('agent-lsp: ' .. method .. ': ' .. tostring(rpc_err.message), vim.log.levels.ERROR)
        return
      end
      cb(result)
    end)
  end)
end

local function when(iso)
  return (tostring(iso or ''):gsub('T', ' '):gsub('%..*$', ''):gsub('Z$', ''))
end

function M.sessions(st, on_pick)
  request(st, 'agent/sessions', function(result)
    local sessions = compat.tbl(compat.get(result, 'sessions'))
    if #sessions == 0 then
      vim.notify('agent-lsp: no sessions yet', vim.log.levels.INFO)
      return
    end
    vim.ui.select(sessions, {
      prompt = 'Resume an agent-lsp session',
      kind = 'agent_lsp_session',
      format_item = function(s)
        local current = s.sessionId == st.session_id and ' (current)' or ''
        return string.format('%s  %s%s', when(s.updatedAt), s.title ~= '' and s.title or s.sessionId, current)
      end,
    }, function(choice)
      if choice then
        on_pick(choice)
      end
    end)
  end)
end

function M.tools(st)
  request(st, 'agent/tools', function(result)
    local tools = compat.tbl(compat.get(result, 'tools'))
    local width = 0
    for _, t in ipairs(tools) do
      width = math.max(width, #t.name)
    end
    local lines = { string.format('agent-lsp tools in %s (%d)', st.root, #tools), '' }
    for _, t in ipairs(tools) do
      local description = vim.split(compat.str(t.description), '\n', { plain = true })[1]
      table.insert(lines, string.format('%-' .. width .. 's  [%s]  %s', t.name, t.source or 'builtin', description))
    end
    vim.cmd('botright new')
    local buf = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
    for option, value in pairs({
      buftype = 'nofile',
      bufhidden = 'wipe',
      swapfile = false,
      modifiable = false,
      filetype = 'agent_lsp_tools',
    }) do
      vim.bo[buf][option] = value
    end
    pcall(vim.api.nvim_buf_set_name, buf, 'agent-lsp://tools')
    vim.api.nvim_win_set_height(0, math.min(#lines, 15))
  end)
end

-- resume makes a picked session the chat's current one.
function M.resume(st, session)
  st.session_id = session.sessionId
  require('agent_lsp.queue').reset(st)
  chat.reset_status()
  chat.open(false)
  -- The session's conversation (and plan), then the line saying it goes on.
  transcript.load(st, function()
    chat.note(string.format('— continuing session %s: %s', session.sessionId, compat.str(session.title)))
  end)
  control.refresh_session(st, false)
end

return M
