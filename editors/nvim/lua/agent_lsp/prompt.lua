-- Prompts: one running prompt per workspace root, in the root's current
-- session; a chat prompt sent while it runs is queued or steers it
-- (queue.lua). The chat shows every update of the session; an inline
-- prompt also shows its progress next to the selection.
local chat = require('agent_lsp.chat')
local control = require('agent_lsp.control')
local daemon = require('agent_lsp.daemon')
local inline = require('agent_lsp.inline')
local queue = require('agent_lsp.queue')
local compat = require('agent_lsp.compat')

local M = {}

---A running prompt (state.running), from start() until settled.
---@class agent_lsp.Run
---@field token string its $/progress token
---@field marker agent_lsp.Marker? the inline prompt's progress marker
---@field bufnr integer? the buffer an inline prompt is about
---@field slash boolean it is a slash command
---@field streamed boolean? text was streamed for it
---@field edited boolean? an edit of it completed
---@field settled boolean? it has ended
---@field request_id integer? agent/prompt's request id
---@field client_id integer? the client it was sent to

---How a prompt ended (state.last, and status().last).
---@class agent_lsp.PromptEnd
---@field stopReason string end_turn, cancelled, error, …
---@field error string? what went wrong
---@field text string? the answer's text
---@field sessionId string? the session it ran in

---Numbers the progress tokens of this Neovim's prompts.
local token_counter = 0

local function fire(pattern)
  vim.api.nvim_exec_autocmds('User', { pattern = pattern, modeline = false })
end

-- settle ends the running prompt once: from the answer, the crash of the
-- daemon, or a cancel the daemon never answered.
local function settle(st, run, stop_reason, message, result)
  if st.running ~= run or run.settled then
    return
  end
  run.settled = true
  st.running = nil
  st.last = { stopReason = stop_reason, error = message, text = compat.get(result, 'text'), sessionId = st.session_id }
  -- A built-in slash command streams nothing: its answer is the result.
  if compat.get(result, 'command') and not run.streamed and compat.str(compat.get(result, 'text')) ~= '' then
    chat.answer(result.text)
  end
  -- A limit (max_rounds, answer_cut, tool_call_limit) is told in the daemon's words.
  chat.finish(stop_reason, message or compat.str(compat.get(result, 'notice')))
  if run.marker then
    if stop_reason == 'end_turn' then
      inline.done(run.marker, 'done', 'AgentLspToolOk', '✓')
      -- An answer in words (a question, or an edit not made): shown where
      -- it was asked, not only in the chat.
      local text = compat.str(compat.get(result, 'text'))
      if not run.edited and vim.trim(text) ~= '' and vim.api.nvim_get_current_buf() == run.marker.bufnr then
        require('agent_lsp.float').answer(text)
      end
    else
      inline.done(run.marker, stop_reason .. (message and (': ' .. message) or ''), 'AgentLspToolFailed', '✗')
    end
  end
  fire('AgentLspPromptEnd')
end

-- on_update handles agent/update for the root's client.
function M.on_update(st, params)
  if type(params) ~= 'table' then
    return
  end
  local run = st.running
  if run and not st.session_id then
    -- The first prompt of a chat names its new session in its updates;
    -- agent/session tells its mode and model.
    st.session_id = params.sessionId
    control.refresh_session(st, false)
  end
  if params.sessionId ~= st.session_id then
    return
  end
  if params.kind == 'queue' or params.kind == 'steer' then
    queue.on_update(st, params)
    return
  end
  queue.before_output(st, params)
  if run and params.kind == 'text' then
    run.streamed = true
  end
  if
    run
    and params.kind == 'tool_result'
    and params.status == 'completed'
    and (params.name == 'edit_file' or params.name == 'write_file')
  then
    run.edited = true
  end
  -- A slash command's answer says what it changed.
  chat.update(params, run and run.slash)
  if run and run.marker and params.kind == 'tool_call' then
    inline.show(run.marker, 'Running ' .. tostring(params.name))
  end
end

-- on_progress handles $/progress on the running prompt's token.
function M.on_progress(st, params)
  local run = st.running
  if not (run and params and params.token == run.token and type(params.value) == 'table') then
    return
  end
  local message = params.value.message
  if params.value.kind ~= 'end' and message and run.marker then
    inline.show(run.marker, message)
  end
  if message == 'Waiting for approval' then
    chat.set_state('waiting for approval')
  elseif message == 'Waiting for review' then
    chat.set_state('waiting for review')
  end
end

-- on_crash settles the prompt the dead daemon was running.
function M.on_crash(st, client_id, code, signal)
  if st.running and st.running.client_id == client_id then
    settle(st, st.running, 'error', string.format('the daemon exited (code %d, signal %d)', code, signal))
  end
end

local function send(st, client, run, params, retried)
  local ok, request_id = compat.request(client, 'agent/prompt', params, function(err, result)
    if err then
      -- A session id the restarted daemon never stored (created but
      -- never prompted) is unknown to it: start afresh, once.
      if not retried and params.sessionId and err.code == -32602 and tostring(err.message):match('session') then
        st.session_id = nil
        params.sessionId = nil
        chat.note('(the old session was not stored; starting a new one)')
        send(st, client, run, params, true)
        return
      end
      settle(st, run, 'error', err.message or vim.inspect(err))
      return
    end
    local session_id = compat.get(result, 'sessionId')
    if session_id and session_id ~= st.session_id then
      st.session_id = session_id
      control.refresh_session(st, false)
    end
    settle(st, run, compat.get(result, 'stopReason') or 'error', compat.get(result, 'error'), result)
  end, run.bufnr)
  if not ok then
    settle(st, run, 'error', 'the daemon is not running')
    return
  end
  run.request_id = request_id
  run.client_id = client.id
end

---What start() is told besides the text.
---@class agent_lsp.PromptOptions
---@field context { uri: string?, range: table? }? the selection the prompt is about
---@field bufnr integer? its buffer (attached to the daemon first)
---@field marker agent_lsp.Marker? where its progress shows
---@field where string? shown after the prompt in the transcript (file:lines)
---@field steer boolean? while a prompt runs: steer it (else the prompt is queued)

---Sends a prompt in the root's session. While one runs, a chat prompt
---is queued (or steers the running turn: opts.steer); an inline prompt
---is refused (false).
---@param st agent_lsp.State
---@param text string
---@param opts agent_lsp.PromptOptions?
---@return boolean
function M.start(st, text, opts)
  opts = opts or {}
  if st.running or queue.busy(st) then
    if not opts.marker and not opts.bufnr and not opts.context then
      return queue.send(st, text, opts.steer and 'steer' or 'queue')
    end
    vim.notify('agent-lsp: a prompt is running; :AgentCancel stops it', vim.log.levels.WARN)
    return false
  end
  token_counter = token_counter + 1
  local run = {
    token = 'agent-lsp.nvim/' .. token_counter,
    marker = opts.marker,
    bufnr = opts.bufnr,
    slash = text:match('^%s*/%a') ~= nil,
  }
  st.running = run
  chat.user_prompt(text, opts.where)
  chat.set_state(daemon.client(st) and 'thinking' or 'starting agent-lsp')
  if run.marker then
    inline.show(run.marker, 'Thinking')
  end
  daemon.ensure(st, function(client, err)
    if st.running ~= run then
      return -- cancelled while the daemon started
    end
    if not client then
      settle(st, run, 'error', err)
      return
    end
    if opts.bufnr then
      daemon.attach(st, opts.bufnr)
    end
    chat.set_state('thinking')
    send(st, client, run, {
      sessionId = st.session_id,
      prompt = text,
      context = opts.context,
      workDoneToken = run.token,
    }, false)
  end)
  return true
end

---Stops the running prompt: agent/cancel for its session (the
---daemon then answers the prompt with stopReason "cancelled"), or
---$/cancelRequest before the session is known. Neovim 0.7.2 never calls a
---cancelled request's handler, so a prompt not answered soon is settled
---here.
---The prompts queued then run in order, unless drop_queue.
---@param st agent_lsp.State
---@param drop_queue boolean?
function M.cancel(st, drop_queue)
  local run = st.running
  local params = { sessionId = st.session_id, dropQueue = drop_queue or nil }
  if drop_queue then
    queue.dropping(st)
  end
  if not run then
    local client = daemon.client(st)
    if queue.busy(st) and client and st.session_id then
      -- A queued prompt runs: the daemon answers it "cancelled".
      compat.notify(client, 'agent/cancel', params)
      return
    end
    vim.notify('agent-lsp: nothing to cancel', vim.log.levels.INFO)
    return
  end
  local client = run.client_id and vim.lsp.get_client_by_id(run.client_id)
  if client and st.session_id then
    compat.notify(client, 'agent/cancel', params)
  elseif client and run.request_id then
    compat.cancel_request(client, run.request_id)
  end
  chat.set_state('cancelling')
  local wait = client and 2000 or 0
  vim.defer_fn(function()
    settle(st, run, 'cancelled', nil)
  end, wait)
end

return M
