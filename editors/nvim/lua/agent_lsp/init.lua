-- agent-lsp for Neovim (0.7.2 and later): chat, inline prompts on a
-- selection, approvals with a diff preview, edits reviewed hunk by hunk and
-- saved after approval, rewinding to before a prompt, the plan, modes,
-- model switching, slash command completion and, on 0.12, ghost text from
-- the daemon's completion model. See :help agent_lsp.
local chat = require('agent_lsp.chat')
local client = require('agent_lsp.client')
local commands = require('agent_lsp.commands')
local compat = require('agent_lsp.compat')
local completion = require('agent_lsp.completion')
local config = require('agent_lsp.config')
local control = require('agent_lsp.control')
local daemon = require('agent_lsp.daemon')
local highlights = require('agent_lsp.highlights')
local pickers = require('agent_lsp.pickers')
local plan = require('agent_lsp.plan')
local prompt = require('agent_lsp.prompt')
local queue = require('agent_lsp.queue')
local roots = require('agent_lsp.roots')
local transcript = require('agent_lsp.transcript')
local rewind = require('agent_lsp.rewind')

---The plugin's public API: require('agent_lsp').
---@class agent_lsp
local M = {}

---Opens (or focuses) the chat, starting the daemon so that completion in
---the prompt line knows the slash commands.
function M.chat()
  local st = roots.adopt_current()
  chat.open(true)
  if chat.fresh() then
    -- A chat reopened after its transcript was wiped: redraw the session.
    transcript.load(st)
  end
  daemon.ensure(st, function() end)
end

---Sends a prompt to the chat's session; the answer streams into the chat.
---While a prompt runs it is queued, or steers the running turn (steer).
---Without text (or blank), opens the chat.
---@param text string?
---@param steer boolean?
function M.ask(text, steer)
  if text == nil or vim.trim(text) == '' then
    M.chat()
    return
  end
  local st = roots.adopt_current()
  chat.open(false)
  prompt.start(st, text, { steer = steer })
end

---Steers the running turn: text reaches the model at its next safe point
---(after the running tool calls, before the next model request). When
---nothing runs it is an ordinary prompt.
---@param text string?
function M.steer(text)
  M.ask(text, true)
end

---Picks a task call of the chat (vim.ui.select) and shows its subagent's
---conversation in a scratch buffer.
function M.subagent()
  require('agent_lsp.subagent').open(roots.adopt_current())
end

---Lists the waiting messages (vim.ui.select) to edit or remove one.
function M.queue()
  queue.pick(roots.adopt_current())
end

---Prompts about lines line1..line2 (1-based) of a file buffer; the edit
---the agent proposes goes through the approval. Without text, asks for it
---(vim.ui.input).
---@param bufnr integer
---@param line1 integer
---@param line2 integer
---@param text string?
function M.inline(bufnr, line1, line2, text)
  local file = daemon.file_of(bufnr)
  if not file then
    vim.notify('agent-lsp: :AgentInline needs a file buffer', vim.log.levels.ERROR)
    return
  end
  if text == nil or vim.trim(text) == '' then
    vim.ui.input({ prompt = 'Agent (lines ' .. line1 .. '-' .. line2 .. '): ' }, function(input)
      if input and vim.trim(input) ~= '' then
        M.inline(bufnr, line1, line2, input)
      end
    end)
    return
  end
  local st = roots.adopt(daemon.root_of(bufnr))
  local last = vim.api.nvim_buf_get_lines(bufnr, line2 - 1, line2, true)[1] or ''
  local last_utf16 = compat.utf16_len(last)
  local range = {
    start = { line = line1 - 1, character = 0 },
    ['end'] = { line = line2 - 1, character = last_utf16 },
  }
  local where = vim.fn.fnamemodify(file, ':.') .. ':' .. line1 .. '-' .. line2
  prompt.start(st, text, {
    bufnr = bufnr,
    context = { uri = vim.uri_from_bufnr(bufnr), range = range },
    marker = { bufnr = bufnr, line = line1 - 1 },
    where = where,
  })
end

---Cancels the running prompt of the current root.
function M.cancel(drop_queue)
  prompt.cancel(roots.adopt_current(), drop_queue)
end

---Picks a session (vim.ui.select) and continues it in the chat.
function M.sessions()
  local st = roots.adopt_current()
  pickers.sessions(st, function(session)
    pickers.resume(st, session)
  end)
end

---Lists the daemon's tools in a scratch buffer.
function M.tools()
  pickers.tools(roots.adopt_current())
end

---Sets the chat session's mode; without one, picks it (vim.ui.select).
---@param mode string? 'ask', 'plan', 'default' or 'auto-edit'
function M.mode(mode)
  if mode == nil or vim.trim(mode) == '' then
    control.pick_mode(roots.adopt_current())
  else
    control.set_mode(roots.adopt_current(), vim.trim(mode))
  end
end

---Switches the chat session's model to a preset of agent/models (or a
---model of the current provider); without one, picks a preset.
---@param name string? a preset's id or a model name
function M.model(name)
  if name == nil or vim.trim(name) == '' then
    control.pick_model(roots.adopt_current())
  else
    control.set_model(roots.adopt_current(), vim.trim(name))
  end
end

---Rewinds the chat's session to before its n-th prompt (1: the oldest):
---files restored, the conversation from there on dropped; without n,
---picks the prompt (vim.ui.select).
---@param n integer?
function M.rewind(n)
  rewind.rewind(roots.adopt_current(), n)
end

---Lists the saved permission rules (agent/permissions) to remove one, or
---to trust the workspace's rules file (vim.ui.select).
function M.permissions()
  require('agent_lsp.permissions').show(roots.adopt_current())
end

---The chat session's plan as last shown.
---@return agent_lsp.PlanItem[]
function M.plan()
  return plan.items()
end

---What status() says of the current root's agent.
---@class agent_lsp.Status
---@field root string the workspace root
---@field daemon_running boolean
---@field pid integer? the daemon's pid while it runs
---@field session_id string? the chat's session
---@field running boolean a prompt runs
---@field queued integer messages waiting in the session's queue
---@field last agent_lsp.PromptEnd? how the last prompt ended
---@field crashes integer the daemon's unexpected exits
---@field mode string? the session's mode
---@field model string? the session's model
---@field completion { state: string, message: string?, uri: string? }? the inline completion's last status

---The state of the current root's agent.
---@return agent_lsp.Status
function M.status()
  local st = daemon.state(roots.current())
  return {
    root = st.root,
    daemon_running = daemon.client(st) ~= nil,
    pid = daemon.client(st) and st.pid or nil,
    session_id = st.session_id,
    running = st.running ~= nil,
    queued = st.queue and #st.queue.items or 0,
    last = st.last,
    crashes = st.crashes,
    mode = chat.status().mode,
    model = chat.status().model,
    completion = st.completion,
  }
end

---A status line component: state, last call's usage, the session cost,
---and the inline completion's "completing…" or failure.
---@return string
function M.statusline()
  return chat.status_text({ completion = completion.status_text(daemon.state(roots.current())) })
end

local function create_keymaps(keymaps)
  if keymaps.chat then
    vim.keymap.set('n', keymaps.chat, '<cmd>AgentChat<cr>', { desc = 'agent-lsp chat' })
  end
  if keymaps.inline then
    -- ":" in visual mode inserts '<,'> ; the user types the prompt.
    vim.keymap.set('x', keymaps.inline, ':AgentInline ', { desc = 'agent-lsp inline prompt' })
  end
  if keymaps.cancel then
    vim.keymap.set('n', keymaps.cancel, '<cmd>AgentCancel<cr>', { desc = 'agent-lsp cancel' })
  end
end

local function create_autocmds(opts)
  local group = vim.api.nvim_create_augroup('agent_lsp', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile', 'BufEnter' }, {
    group = group,
    callback = function(args)
      local bufnr = args.buf
      if not daemon.file_of(bufnr) then
        return
      end
      local st = daemon.state(daemon.root_of(bufnr))
      if daemon.client(st) then
        daemon.attach(st, bufnr)
      elseif opts.autostart then
        daemon.ensure(st, function() end)
      end
    end,
  })
  vim.api.nvim_create_autocmd('VimLeavePre', {
    group = group,
    callback = daemon.expect_exit,
  })
  vim.api.nvim_create_autocmd('VimResized', { group = group, callback = chat.resize })
end

local set_up = false

---Whether setup() has run.
---@return boolean
function M.is_setup()
  return set_up
end

---setup() with the defaults, unless setup() ran (the commands of
---plugin/agent_lsp.lua call it before they run).
function M.ensure_setup()
  if not set_up then
    M.setup({})
  end
end

---Sets the plugin up: the options (see :help agent_lsp-setup), the
---callbacks of the daemons' clients, the commands, key maps and autocmds.
---Called again, the new options hold for daemons started from then on.
---@param user agent_lsp.Options? the options to change from the defaults
function M.setup(user)
  local opts = config.set(user)
  set_up = true
  daemon.configure(client.callbacks)
  highlights.setup()
  commands.create()
  create_keymaps(opts.keymaps or {})
  create_autocmds(opts)
end

return M
