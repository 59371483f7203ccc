-- Prompts sent while one runs, in Neovim: queued (they run in order when
-- the running one ends) or steering the running turn (delivered at its
-- next safe point). The daemon's queue updates list the waiting messages
-- (the chat shows them at its end, the status line counts them). A queued
-- prompt that leaves the queue without :AgentQueue removing it has started
-- (drawn as the user's prompt). A steer message that leaves it was
-- delivered (the steer update follows: drawn as a steer line), runs as the
-- next prompt (the turn ended before a safe point: its output follows, and
-- it is drawn as a prompt before it), or was dropped by a cancel (its
-- answer says removed). :AgentQueue edits and removes them.
local chat = require('agent_lsp.chat')
local compat = require('agent_lsp.compat')
local daemon = require('agent_lsp.daemon')

local M = {}

---A root's queue (st.queue).
---@class agent_lsp.Queue
---@field items { id: string, prompt: string, delivery: string }[] the last queue update's
---@field removing table<string, boolean> ids :AgentQueue asked to remove
---@field steers table<string, boolean> steer messages shown, by id
---@field leaving table[] steer messages that left the queue, not yet known delivered, run or dropped
---@field pending integer prompts sent with a delivery, not answered yet

---@param st agent_lsp.State
---@return agent_lsp.Queue
function M.state(st)
  st.queue = st.queue or { items = {}, removing = {}, steers = {}, leaving = {}, pending = 0 }
  return st.queue
end

---Whether a prompt sent with a delivery waits for its answer (the chat is
---busy even when the prompt it started with has ended).
---@param st agent_lsp.State
---@return boolean
function M.busy(st)
  return st.queue ~= nil and st.queue.pending > 0
end

---The items of old that are not in new and were not removed from here
---(pure: they started or were delivered). Consumes the removals it meets.
---@param old table[]
---@param new table[]
---@param removing table<string, boolean>
---@return table[]
function M.left(old, new, removing)
  local kept = {}
  for _, item in ipairs(new) do
    kept[item.id] = true
  end
  local out = {}
  for _, item in ipairs(old) do
    if not kept[item.id] then
      if removing[item.id] then
        removing[item.id] = nil
      else
        table.insert(out, item)
      end
    end
  end
  return out
end

-- show_steer draws a delivered steer message, once per id.
local function show_steer(q, id, text)
  if q.steers[id] then
    return
  end
  q.steers[id] = true
  chat.steer(text)
end

---Takes a queue or steer update of the root's session.
---@param st agent_lsp.State
---@param u table
function M.on_update(st, u)
  local q = M.state(st)
  if u.kind == 'steer' then
    local id = compat.str(u.id)
    q.leaving = vim.tbl_filter(function(l)
      return l.id ~= id
    end, q.leaving)
    show_steer(q, id, compat.str(u.prompt))
    return
  end
  local items = {}
  for _, item in ipairs(compat.tbl(u.items)) do
    table.insert(
      items,
      { id = compat.str(item.id), prompt = compat.str(item.prompt), delivery = compat.str(item.delivery) }
    )
  end
  for _, item in ipairs(M.left(q.items, items, q.removing)) do
    if item.delivery == 'steer' then
      table.insert(q.leaving, item)
    else
      q.leaving = {} -- a steer runs ahead of a queued prompt: those were dropped
      chat.user_prompt(item.prompt)
    end
  end
  q.items = items
  chat.set_queue(items)
end

---Before the session's own output (text, reasoning, a tool call): a steer
---message still leaving the queue runs as a prompt, drawn as one first.
---@param st agent_lsp.State
---@param u table
function M.before_output(st, u)
  local q = st.queue
  if not q or #q.leaving == 0 or compat.str(u.parentToolCallId) ~= '' then
    return
  end
  if u.kind == 'text' or u.kind == 'reasoning' or u.kind == 'tool_call' then
    local ran = q.leaving
    q.leaving = {}
    for _, item in ipairs(ran) do
      chat.user_prompt(item.prompt)
    end
  end
end

---Notes that every waiting message is about to be dropped (:AgentCancel!):
---their leaving the queue is no start.
---@param st agent_lsp.State
function M.dropping(st)
  local q = M.state(st)
  for _, item in ipairs(q.items) do
    q.removing[item.id] = true
  end
end

---Whether a queued prompt's answer ends a prompt the chat showed run: not
---a steer message delivered to the running turn, nor one removed before
---it started.
---@param result table
---@return boolean
function M.answer_shown(result)
  local stop = compat.get(result, 'stopReason')
  if stop == 'steered' then
    return false
  end
  return not (stop == 'cancelled' and compat.get(result, 'notice') == 'removed from the queue')
end

---Sends text to the root's session while a prompt runs: delivery 'queue'
---or 'steer'. false when there is no session to send it to yet.
---@param st agent_lsp.State
---@param text string
---@param delivery 'queue'|'steer'
---@return boolean
function M.send(st, text, delivery)
  local client = daemon.client(st)
  local session = st.session_id
  if not client or not session then
    vim.notify('agent-lsp: the running prompt has no session yet; send it again in a moment', vim.log.levels.WARN)
    return false
  end
  local q = M.state(st)
  q.pending = q.pending + 1
  local ok = compat.request(
    client,
    'agent/prompt',
    { sessionId = session, prompt = text, delivery = delivery },
    function(err, result)
      q.pending = q.pending - 1
      if st.session_id ~= session then
        return
      end
      if err then
        chat.note('✗ not sent: ' .. text .. ': ' .. tostring(err.message), 'AgentLspError')
      elseif M.answer_shown(result) then
        chat.finish(
          compat.get(result, 'stopReason'),
          compat.get(result, 'error') or compat.str(compat.get(result, 'notice'))
        )
      end
      if not st.running and q.pending == 0 then
        chat.set_state('idle')
      end
    end
  )
  if not ok then
    q.pending = q.pending - 1
    return false
  end
  return true
end

-- change asks the daemon to remove or edit one waiting message; the queue
-- update redraws it (an answer may come after a later update).
local function change(st, params)
  local client = daemon.client(st)
  if not client then
    return
  end
  params.sessionId = st.session_id
  compat.request(client, 'agent/queue', params, function(err)
    if err then
      -- Started or delivered meanwhile: the daemon says so (-32602).
      vim.notify('agent-lsp: ' .. tostring(err.message), vim.log.levels.INFO)
    end
  end)
end

---:AgentQueue: picks a waiting message, then edits or removes it.
---@param st agent_lsp.State
function M.pick(st)
  local q = M.state(st)
  if #q.items == 0 then
    vim.notify('agent-lsp: no message is waiting', vim.log.levels.INFO)
    return
  end
  vim.ui.select(q.items, {
    prompt = 'Waiting messages',
    format_item = function(item)
      return (item.delivery == 'steer' and 'steer: ' or 'queued: ') .. item.prompt:gsub('\n', ' ')
    end,
  }, function(item)
    if not item then
      return
    end
    vim.ui.select({ 'Edit', 'Remove' }, { prompt = 'The waiting message' }, function(action)
      if action == 'Remove' then
        q.removing[item.id] = true
        change(st, { remove = item.id })
      elseif action == 'Edit' then
        vim.ui.input({ prompt = 'Edit: ', default = item.prompt }, function(text)
          if text and vim.trim(text) ~= '' and text ~= item.prompt then
            change(st, { edit = item.id, prompt = text })
          end
        end)
      end
    end)
  end)
end

---Forgets the queue shown (another session was picked).
---@param st agent_lsp.State
function M.reset(st)
  st.queue = nil
  chat.set_queue({})
end

return M
