-- Steering the chat's session: its mode (:AgentMode), its model
-- (:AgentModel), what agent/session says about it (mode, model, plan), and
-- the lists completion draws from (agent/commands, agent/models), cached
-- per workspace root.
local chat = require('agent_lsp.chat')
local daemon = require('agent_lsp.daemon')
local compat = require('agent_lsp.compat')

local M = {}

-- The modes of docs/protocol.md ("Modes"), in the order a picker shows them.
M.modes = {
  { name = 'ask', description = 'read-only tools only' },
  { name = 'plan', description = 'read-only tools and the plan; the answer is a plan' },
  { name = 'default', description = 'every tool; changes are asked for' },
  { name = 'auto-edit', description = 'edits inside the workspace without asking; commands still ask' },
}

function M.mode_names()
  return vim.tbl_map(function(m)
    return m.name
  end, M.modes)
end

local function report(method, err)
  vim.notify('agent-lsp: ' .. method .. ': ' .. tostring(err and err.message or err), vim.log.levels.ERROR)
end

-- request sends method to the root's daemon (started when needed) and
-- calls cb(result) on success; failures are reported unless quiet.
local function request(st, method, params, cb, quiet)
  daemon.ensure(st, function(client, err)
    if not client then
      if not quiet then
        report(method, err)
      end
      return
    end
    compat.request(client, method, params, function(rpc_err, result)
      if rpc_err then
        if not quiet then
          report(method, rpc_err)
        end
        return
      end
      cb(result)
    end)
  end)
end
M.request = request

-- with_session calls cb(session_id) with the chat's session, creating one
-- (agent/newSession) when the chat has none yet, so a mode or model can be
-- set before the first prompt.
local function with_session(st, method, cb)
  if st.session_id then
    cb(st.session_id)
    return
  end
  if st.running then
    vim.notify(
      'agent-lsp: ' .. method .. ': the running prompt has no session yet; try again in a moment',
      vim.log.levels.WARN
    )
    return
  end
  request(st, 'agent/newSession', vim.empty_dict(), function(result)
    st.session_id = st.session_id or result.sessionId
    cb(st.session_id)
  end)
end

-- set_mode switches the chat's session to mode (agent/setMode); the mode
-- update that follows shows it.
function M.set_mode(st, mode)
  with_session(st, 'agent/setMode', function(id)
    request(st, 'agent/setMode', { sessionId = id, mode = mode }, function(result)
      chat.set_session_info({ mode = result.mode })
    end)
  end)
end

-- pick_mode asks for a mode with vim.ui.select, then sets it.
function M.pick_mode(st)
  local current = chat.status().mode
  vim.ui.select(M.modes, {
    prompt = 'agent-lsp mode',
    kind = 'agent_lsp_mode',
    format_item = function(m)
      return string.format('%-9s %s%s', m.name, m.description, m.name == current and ' (current)' or '')
    end,
  }, function(choice)
    if choice then
      M.set_mode(st, choice.name)
    end
  end)
end

-- fetch_models refreshes the root's preset cache (agent/models) and shows
-- the current model; cb(models, current) when given. quiet: a background
-- refresh, whose failure (a session a restarted daemon never stored) is
-- not worth a message.
function M.fetch_models(st, cb, quiet)
  request(st, 'agent/models', st.session_id and { sessionId = st.session_id } or vim.empty_dict(), function(result)
    st.models = compat.tbl(result.models)
    local model = compat.get(result, 'current', 'model')
    if model then
      chat.set_session_info({ model = model })
    end
    if cb then
      cb(st.models, compat.tbl(result.current))
    end
  end, quiet)
end

-- set_model switches the chat's session to a preset of agent/models, or to
-- a model of the current provider when name is no preset's id.
function M.set_model(st, name)
  M.fetch_models(st, function(models)
    local params = { model = name }
    for _, m in ipairs(models) do
      if m.id == name then
        params = { preset = name }
      end
    end
    with_session(st, 'agent/setModel', function(id)
      params.sessionId = id
      request(st, 'agent/setModel', params, function(result)
        chat.set_session_info({ model = result.model })
      end)
    end)
  end)
end

local function describe_model(m, current)
  local parts = { string.format('%-20s %s %s', m.id, m.provider, m.model) }
  if m.contextWindow then
    table.insert(parts, string.format('%dk context', math.floor(m.contextWindow / 1000)))
  end
  if type(m.prices) == 'table' and m.prices.input then
    table.insert(parts, string.format('$%s/$%s per M', m.prices.input, m.prices.output or '?'))
  end
  if current and m.model == current.model and m.provider == current.provider and m.baseURL == current.baseURL then
    table.insert(parts, '(current)')
  end
  return table.concat(parts, '  ')
end

-- pick_model asks for a preset with vim.ui.select, then switches to it.
function M.pick_model(st)
  M.fetch_models(st, function(models, current)
    if #models == 0 then
      vim.notify('agent-lsp: no model presets', vim.log.levels.INFO)
      return
    end
    vim.ui.select(models, {
      prompt = 'agent-lsp model',
      kind = 'agent_lsp_model',
      format_item = function(m)
        return describe_model(m, current)
      end,
    }, function(choice)
      if choice then
        M.set_model(st, choice.id)
      end
    end)
  end)
end

-- fetch_commands refreshes the root's slash command cache
-- (agent/commands); cb(commands) when given.
function M.fetch_commands(st, cb, quiet)
  request(st, 'agent/commands', vim.empty_dict(), function(result)
    st.commands = compat.tbl(result.commands)
    if cb then
      cb(st.commands)
    end
  end, quiet)
end

-- refresh_session shows what agent/session says of the chat's session:
-- its mode and model, and with show_plan its plan (a session resumed).
function M.refresh_session(st, show_plan)
  local id = st.session_id
  if not id then
    return
  end
  request(st, 'agent/session', { sessionId = id }, function(result)
    if st.session_id ~= id then
      return -- another session was picked meanwhile
    end
    chat.set_session_info({ mode = result.mode, model = result.model })
    if show_plan and type(result.plan) == 'table' and #result.plan > 0 then
      chat.update({ kind = 'plan', items = result.plan })
    end
  end)
end

return M
