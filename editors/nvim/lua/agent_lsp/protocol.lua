-- The agent/* wire fields this plugin reads and sends, by method (and by
-- kind for agent/update). Pure Lua, no `vim`: editors/nvim/test/wire.lua
-- checks every golden message the daemon's Go types write
-- (lsp/testdata/wire, docs/protocol.md "Wire types") against it under a
-- plain Lua interpreter, so a field renamed on the Go side fails that test
-- with no editor. A method or kind the daemon sends that is missing here
-- fails it too: list it, with what the plugin reads of it (maybe nothing).
--
-- A field's spec is a Lua type ('string', 'number', 'boolean', 'table'),
-- 'any', an object's fields (a table of specs) or list(spec), an array of
-- such.
local M = {}

---@param item string|table the spec of each element
---@return table
local function list(item)
  return { list = item }
end
M.list = list

local usage = { promptTokens = 'number', completionTokens = 'number', cachedTokens = 'number' }
local totals = { promptTokens = 'number', completionTokens = 'number', cachedTokens = 'number', cost = 'number' }
local plan_item = { content = 'string', status = 'string' }
local hunk = {
  id = 'number',
  startLine = 'number',
  endLine = 'number',
  oldText = 'string',
  newText = 'string',
  diff = 'string',
}
local current_model = { provider = 'string', model = 'string', baseURL = 'string' }

-- Every agent/update carries these; the kinds add theirs (chat.update).
M.update_header = { sessionId = 'string', seq = 'number', kind = 'string' }
-- A subagent's updates (agent.update.subagent.*) carry its task call's id
-- besides (chat_children.lua).
M.subagent_header = { parentToolCallId = 'string' }
M.update_kinds = {
  text = { text = 'string' },
  reasoning = { text = 'string' },
  tool_call = { toolCallId = 'string', name = 'string', arguments = 'any' },
  tool_result = { toolCallId = 'string', status = 'string' },
  round_end = { usage = usage, cost = 'number', totals = totals },
  compacted = { totals = totals, beforeTokens = 'number', afterTokens = 'number' },
  retry = {}, -- not shown: the prompt's progress says it
  error = { message = 'string' },
  plan = { items = list(plan_item) },
  mode = { mode = 'string' },
  model = { model = 'string', provider = 'string' },
  mention = { path = 'string', startLine = 'number', endLine = 'number', status = 'string', message = 'string' },
  queue = { items = list({ id = 'string', prompt = 'string', delivery = 'string' }) }, -- queue.lua
  steer = { id = 'string', prompt = 'string' },
}

-- The other methods: params are what the plugin sends (for a request from
-- the daemon: what it reads), result what it reads back (for a request
-- from the daemon: what it answers).
M.methods = {
  ['agent/newSession'] = { params = {}, result = { sessionId = 'string' } },
  ['agent/prompt'] = {
    params = {
      sessionId = 'string',
      prompt = 'string',
      context = { uri = 'string', range = 'table' },
      delivery = 'string',
    },
    result = { sessionId = 'string', stopReason = 'string', text = 'string', error = 'string', notice = 'string' },
  },
  ['agent/sessions'] = {
    params = {},
    result = { sessions = list({ sessionId = 'string', title = 'string', updatedAt = 'string' }) },
  },
  ['agent/tools'] = {
    params = {},
    result = { tools = list({ name = 'string', description = 'string', source = 'string' }) },
  },
  ['agent/cancel'] = { params = { sessionId = 'string', dropQueue = 'boolean' } },
  -- :AgentQueue; its answer is not read (the queue update redraws the queue).
  ['agent/queue'] = {
    params = { sessionId = 'string', remove = 'string', edit = 'string', prompt = 'string' },
    result = {},
  },
  ['agent/worktree'] = { params = {}, result = {} }, -- not in the plugin
  ['agent/compact'] = { params = {}, result = {} }, -- :AgentCompact is not in the plugin
  ['agent/mcpStatus'] = { params = {}, result = {} }, -- not in the plugin
  ['agent/mcpTrust'] = { params = {}, result = {} }, -- not in the plugin
  ['agent/subagents'] = { params = {}, result = {} }, -- not in the plugin
  ['agent/subagentTrust'] = { params = {}, result = {} }, -- not in the plugin
  ['agent/setMode'] = { params = { sessionId = 'string', mode = 'string' }, result = { mode = 'string' } },
  ['agent/setModel'] = {
    params = { sessionId = 'string', preset = 'string', model = 'string', provider = 'string' },
    result = { model = 'string' },
  },
  ['agent/models'] = {
    params = { sessionId = 'string' },
    result = {
      models = list({ id = 'string', provider = 'string', model = 'string', baseURL = 'string' }),
      current = current_model,
    },
  },
  ['agent/commands'] = {
    params = {},
    result = { commands = list({ name = 'string', description = 'string', arguments = 'table' }) },
  },
  ['agent/session'] = {
    params = { sessionId = 'string' },
    result = { mode = 'string', model = 'string', plan = list(plan_item) },
  },
  ['agent/transcript'] = {
    params = { sessionId = 'string', parentToolCallId = 'string' }, -- the latter: :AgentSubagent
    result = { mode = 'string', entries = list({ kind = 'string' }), plan = list(plan_item) },
  },
  ['agent/checkpoints'] = {
    params = { sessionId = 'string' },
    result = {
      checkpoints = list({ checkpointId = 'string', prompt = 'string', createdAt = 'string', files = list('string') }),
    },
  },
  ['agent/rewind'] = {
    params = {
      sessionId = 'string',
      checkpointId = 'string',
      restoreFiles = 'boolean',
      truncateConversation = 'boolean',
    },
    result = {
      restored = list({ path = 'string', action = 'string' }),
      conflicts = list({ path = 'string', reason = 'string' }),
      droppedMessages = 'number',
      droppedCheckpoints = 'number',
    },
  },
  ['agent/permissions'] = {
    params = { remove = 'string', trust = 'string' },
    result = {
      rules = list({ id = 'string', tool = 'string', pattern = 'string', decision = 'string', source = 'string' }),
      files = list({ source = 'string', path = 'string', exists = 'boolean', trusted = 'boolean' }),
    },
  },
  -- From the daemon.
  ['agent/approve'] = {
    params = {
      sessionId = 'string',
      toolCallId = 'string',
      tool = 'string',
      risk = 'string',
      reasons = list('string'),
      summary = 'string',
      command = 'string',
      visibleCommand = 'string',
      path = 'string',
      uri = 'string',
      hunks = list(hunk),
      options = list({ id = 'string', title = 'string', kind = 'string' }),
    },
    result = { optionId = 'string' },
  },
  ['agent/review'] = {
    params = {
      sessionId = 'string',
      toolCallId = 'string',
      tool = 'string',
      summary = 'string',
      path = 'string',
      uri = 'string',
      hunks = list(hunk),
    },
    result = { decision = 'string', acceptedHunks = list('number'), feedback = 'string' },
  },
  ['agent/completionStatus'] = { params = { uri = 'string', state = 'string', message = 'string' } },
}

return M
