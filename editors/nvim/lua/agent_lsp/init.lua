-- agent-lsp for Neovim (0.7.2 and later): chat, inline prompts on a
-- selection, approvals with a diff preview, edits reviewed hunk by hunk and
-- saved after approval, rewinding to before a prompt, the plan, modes,
-- model switching, slash command completion and, on 0.12, ghost text from
-- the daemon's completion model. See :help agent_lsp.
local approval = require('agent_lsp.approval')
local chat = require('agent_lsp.chat')
local compat = require('agent_lsp.compat')
local complete = require('agent_lsp.complete')
local completion = require('agent_lsp.completion')
local config = require('agent_lsp.config')
local control = require('agent_lsp.control')
local daemon = require('agent_lsp.daemon')
local pickers = require('agent_lsp.pickers')
local plan = require('agent_lsp.plan')
local prompt = require('agent_lsp.prompt')
local review = require('agent_lsp.review')
local transcript = require('agent_lsp.transcript')
local rewind = require('agent_lsp.rewind')

local M = {}

-- The root the chat belongs to: the root of the buffer a command last ran
-- from (commands run from the chat itself keep it).
local chat_root

local function current_root()
  local bufnr = vim.api.nvim_get_current_buf()
  if chat.is_chat_buffer(bufnr) and chat_root then
    return chat_root
  end
  return daemon.root_of(bufnr)
end

local function current_state()
  local root = current_root()
  chat_root = root
  return daemon.state(root)
end

local function make_handlers(st)
  return {
    ['agent/update'] = function(_, params)
      prompt.on_update(st, params)
    end,
    ['$/progress'] = function(err, params, ctx, cfg)
      pcall(vim.lsp.handlers['$/progress'], err, params, ctx, cfg)
      prompt.on_progress(st, params)
    end,
    ['window/showMessageRequest'] = approval.show_message_request,
    ['agent/review'] = review.handle,
    ['workspace/applyEdit'] = approval.apply_edit,
    ['agent/completionStatus'] = function(_, params)
      completion.on_status(st, params)
    end,
  }
end

--- Opens (or focuses) the chat, starting the daemon so that completion
--- in the prompt line knows the slash commands.
function M.chat()
  local st = current_state()
  chat.open(true)
  if chat.fresh() then
    -- A chat reopened after its transcript was wiped: redraw the session.
    transcript.load(st)
  end
  daemon.ensure(st, function() end)
end

--- Sends a prompt to the chat's session; the answer streams into the chat.
function M.ask(text)
  if text == nil or vim.trim(text) == '' then
    M.chat()
    return
  end
  local st = current_state()
  chat.open(false)
  prompt.start(st, text, {})
end

--- Prompts about lines line1..line2 (1-based) of a file buffer; the edit
--- the agent proposes goes through the approval.
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
  local st = daemon.state(daemon.root_of(bufnr))
  chat_root = st.root
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

--- Cancels the running prompt of the current root.
function M.cancel()
  prompt.cancel(current_state())
end

--- Picks a session (vim.ui.select) and continues it in the chat.
function M.sessions()
  local st = current_state()
  pickers.sessions(st, function(session)
    pickers.resume(st, session)
  end)
end

--- Lists the daemon's tools in a scratch buffer.
function M.tools()
  pickers.tools(current_state())
end

--- Sets the chat session's mode; without one, picks it (vim.ui.select).
function M.mode(mode)
  if mode == nil or vim.trim(mode) == '' then
    control.pick_mode(current_state())
  else
    control.set_mode(current_state(), vim.trim(mode))
  end
end

--- Switches the chat session's model to a preset of agent/models (or a
--- model of the current provider); without one, picks a preset.
function M.model(name)
  if name == nil or vim.trim(name) == '' then
    control.pick_model(current_state())
  else
    control.set_model(current_state(), vim.trim(name))
  end
end

--- Rewinds the chat's session to before its n-th prompt (1: the oldest):
--- files restored, the conversation from there on dropped; without n,
--- picks the prompt (vim.ui.select).
function M.rewind(n)
  rewind.rewind(current_state(), n)
end

--- The chat session's plan as last shown: a list of {content, status}.
function M.plan()
  return plan.items()
end

--- The state of the current root's agent: root, daemon pid, session id,
--- whether a prompt runs, the last prompt's outcome, crashes seen.
function M.status()
  local st = daemon.state(current_root())
  return {
    root = st.root,
    daemon_running = daemon.client(st) ~= nil,
    pid = daemon.client(st) and st.pid or nil,
    session_id = st.session_id,
    running = st.running ~= nil,
    last = st.last,
    crashes = st.crashes,
    mode = chat.status().mode,
    model = chat.status().model,
    completion = st.completion,
  }
end

--- A status line component: state, last call's usage, the session cost,
--- and the inline completion's "completing…" or failure.
function M.statusline()
  return chat.status_text({ completion = completion.status_text(daemon.state(current_root())) })
end

local function create_commands()
  local command = vim.api.nvim_create_user_command
  command('AgentChat', function()
    M.chat()
  end, { desc = 'agent-lsp: open the chat' })
  command('AgentAsk', function(o)
    M.ask(o.args)
  end, { nargs = '*', complete = complete.cmdline, desc = 'agent-lsp: ask in the chat' })
  command('AgentMode', function(o)
    M.mode(o.args)
  end, {
    nargs = '?',
    complete = function(lead)
      return vim.tbl_filter(function(m)
        return vim.startswith(m, lead)
      end, control.mode_names())
    end,
    desc = "agent-lsp: set the chat session's mode",
  })
  command('AgentModel', function(o)
    M.model(o.args)
  end, {
    nargs = '?',
    complete = complete.models,
    desc = "agent-lsp: switch the chat session's model",
  })
  command('AgentInline', function(o)
    M.inline(vim.api.nvim_get_current_buf(), o.line1, o.line2, o.args)
  end, { nargs = '*', range = true, desc = 'agent-lsp: prompt about the selected lines' })
  command('AgentCancel', function()
    M.cancel()
  end, { desc = 'agent-lsp: cancel the running prompt' })
  command('AgentSessions', function()
    M.sessions()
  end, { desc = 'agent-lsp: resume a session' })
  command('AgentRewind', function(o)
    local arg = vim.trim(o.args)
    local n = tonumber(arg)
    if arg ~= '' and (n == nil or n ~= math.floor(n)) then
      vim.notify('agent-lsp: :AgentRewind takes a checkpoint number, not ' .. arg, vim.log.levels.ERROR)
      return
    end
    M.rewind(n)
  end, { nargs = '?', desc = 'agent-lsp: rewind the session to before a prompt' })
  command('AgentTools', function()
    M.tools()
  end, { desc = "agent-lsp: list the agent's tools" })
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
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = group,
    callback = function()
      chat.define_highlights()
      review.define_highlights()
      require('agent_lsp.float').define_highlights()
    end,
  })
  vim.api.nvim_create_autocmd('VimResized', { group = group, callback = chat.resize })
end

--- setup({cmd, provider, model, base_url, api_key_env, mcp_servers,
--- auto_save, keymaps, ...}): see :help agent_lsp-setup.
local set_up = false

--- Whether setup() has run (plugin/agent_lsp.lua's commands call it).
function M.is_setup()
  return set_up
end

function M.setup(user)
  local opts = config.set(user)
  set_up = true
  daemon.make_handlers = make_handlers
  daemon.on_crash = prompt.on_crash
  daemon.on_attach = completion.attach
  daemon.on_ready = function(st)
    control.fetch_commands(st, nil, true)
    control.fetch_models(st, nil, true)
  end
  chat.submit = function(text)
    M.ask(text)
  end
  chat.on_input = complete.attach
  complete.state = function()
    return chat_root and daemon.state(chat_root) or daemon.state(current_root())
  end
  chat.define_highlights()
  review.define_highlights()
  require('agent_lsp.float').define_highlights()
  create_commands()
  create_keymaps(opts.keymaps or {})
  create_autocmds(opts)
end

return M
