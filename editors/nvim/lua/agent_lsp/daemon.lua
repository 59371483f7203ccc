-- One agent-lsp daemon per workspace root: start it on demand, attach the
-- root's file buffers, notice when it dies, and start it again on the next
-- command. The root's state (the chat's session id above all) outlives the
-- process, so a restarted daemon resumes the conversation from its stored
-- session.
local config = require('agent_lsp.config')
local compat = require('agent_lsp.compat')

local M = {}

M.client_name = 'agent-lsp'

---A workspace root's daemon and chat session; it outlives the daemon's
---process.
---@class agent_lsp.State
---@field root string the workspace root (absolute, no trailing slash)
---@field client_id integer? the running client's id
---@field pid integer? the daemon's pid, as it says in initialize
---@field ready boolean? the client is initialized (its buffers attached)
---@field waiters fun(client: table?, err: string?)[] ensure()'s callers waiting for the start
---@field crashes integer how many times the daemon died unexpectedly
---@field expected_exits table<integer, boolean> client ids stopped on purpose
---@field quitting boolean? Neovim is quitting (every exit is expected)
---@field session_id string? the chat's session
---@field running agent_lsp.Run? the running prompt
---@field last agent_lsp.PromptEnd? how the last prompt ended
---@field commands table[]? agent/commands' list, cached
---@field models table[]? agent/models' presets, cached
---@field completion { state: string, message: string?, uri: string? }? the last agent/completionStatus

---What a root's client is given, from the plugin's setup() (configure()):
---its handlers and callbacks go into the client's config.
---@class agent_lsp.ClientCallbacks
---@field handlers fun(st: agent_lsp.State): table<string, function> the client's handlers
---@field on_attach fun(client: table, bufnr: integer) a file buffer was attached (the client config's on_attach)
---@field on_ready fun(st: agent_lsp.State) the started daemon is initialized and listed
---@field on_crash fun(st: agent_lsp.State, client_id: integer, code: integer, signal: integer) an unexpected exit

---@type table<string, agent_lsp.State> by root
local states = {}

-- Until configure(): a client with no handlers and nothing to call.
---@type agent_lsp.ClientCallbacks
local callbacks = {
  handlers = function()
    return {}
  end,
  on_attach = function() end,
  on_ready = function() end,
  on_crash = function() end,
}

---Sets what every client started from now on is given.
---@param cbs agent_lsp.ClientCallbacks
function M.configure(cbs)
  compat.validate({
    { 'handlers', cbs.handlers, 'function' },
    { 'on_attach', cbs.on_attach, 'function' },
    { 'on_ready', cbs.on_ready, 'function' },
    { 'on_crash', cbs.on_crash, 'function' },
  })
  callbacks = cbs
end

local function is_dir(path)
  return vim.fn.isdirectory(path) == 1
end

-- find_marker returns the nearest directory at or above dir holding one of
-- markers (a file or a directory), or nil.
local function find_marker(dir, markers)
  local current = dir
  while current and current ~= '' do
    for _, marker in ipairs(markers) do
      if compat.uv.fs_stat(current .. '/' .. marker) then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then
      return nil
    end
    current = parent
  end
end

-- file_of returns the absolute path of a buffer's file, or nil when the
-- buffer is not a file (chat, help, terminal, unnamed).
function M.file_of(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  return vim.fn.fnamemodify(name, ':p')
end

-- root_of is the workspace root of a buffer: the configured function, the
-- nearest marker directory, the cwd when the file is under it, else the
-- file's directory.
function M.root_of(bufnr)
  local opts = config.options
  if opts.root_dir then
    local root = opts.root_dir(bufnr)
    if root then
      return vim.fn.fnamemodify(root, ':p'):gsub('/$', '')
    end
  end
  local cwd = vim.fn.getcwd()
  local file = M.file_of(bufnr)
  if not file then
    return cwd
  end
  local dir = vim.fn.fnamemodify(file, ':h')
  local found = is_dir(dir) and find_marker(dir, opts.root_markers)
  if found then
    return found
  end
  if vim.startswith(file, cwd .. '/') then
    return cwd
  end
  return dir
end

---The root's state, made on first use.
---@param root string
---@return agent_lsp.State
function M.state(root)
  local st = states[root]
  if not st then
    st = { root = root, waiters = {}, crashes = 0, expected_exits = {} }
    states[root] = st
  end
  return st
end

---Every root's state, by root.
---@return table<string, agent_lsp.State>
function M.states()
  return states
end

---The root's running client, or nil.
---@param st agent_lsp.State
---@return table?
function M.client(st)
  if not st.client_id then
    return nil
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if client == nil or compat.is_stopped(client) then
    return nil
  end
  return client
end

local function under_root(st, file)
  return file == st.root or vim.startswith(file, st.root .. '/')
end

-- attach attaches a file buffer of the root to its running daemon (client:
-- the one being initialized, which 0.7 does not list until on_init returns);
-- Neovim then calls the client's on_attach.
function M.attach(st, bufnr, client)
  client = client or M.client(st)
  local file = M.file_of(bufnr)
  if client and st.ready and file and under_root(st, file) then
    vim.lsp.buf_attach_client(bufnr, client.id)
  end
end

local function attach_all(st, client)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.attach(st, bufnr, client)
    end
  end
end

local function settle_waiters(st, client, err)
  local waiters = st.waiters
  st.waiters = {}
  for _, waiter in ipairs(waiters) do
    waiter(client, err)
  end
end

local function on_exit(st, cbs, client_id, code, signal)
  local expected = st.expected_exits[client_id] or st.quitting
  st.expected_exits[client_id] = nil
  if st.client_id == client_id then
    st.client_id, st.pid, st.ready = nil, nil, false
    settle_waiters(st, nil, string.format('agent-lsp exited (code %d, signal %d) before it was ready', code, signal))
  end
  if expected then
    return
  end
  st.crashes = st.crashes + 1
  local resume = st.session_id and ('; session ' .. st.session_id .. ' resumes') or ''
  vim.notify(
    string.format(
      'agent-lsp exited unexpectedly (exit code %d, signal %d) in %s. It restarts on the next command%s.',
      code,
      signal,
      st.root,
      resume
    ),
    vim.log.levels.ERROR
  )
  cbs.on_crash(st, client_id, code, signal)
end

---Neovim's capabilities, plus experimental.agentApprove (the daemon asks
---for approvals with agent/approve, structured, not the text popup) and,
---with the review option, experimental.agentReview (edits are reviewed
---hunk by hunk: agent/review).
---@param opts agent_lsp.Options
---@return table
function M.capabilities(opts)
  local caps = vim.lsp.protocol.make_client_capabilities()
  local experimental = { agentApprove = true }
  if opts.review then
    experimental.agentReview = true
  end
  caps.experimental = vim.tbl_extend('force', caps.experimental or {}, experimental)
  return caps
end

local function start(st)
  local opts = config.options
  -- The client keeps the callbacks it was started with.
  local cbs = callbacks
  st.ready = false
  local client_id = compat.start_client({
    name = M.client_name,
    cmd = opts.cmd,
    cmd_cwd = st.root,
    root_dir = st.root,
    workspace_folders = { { uri = vim.uri_from_fname(st.root), name = st.root } },
    offset_encoding = 'utf-16',
    capabilities = M.capabilities(opts),
    init_options = config.initialization_options(opts),
    handlers = cbs.handlers(st),
    on_attach = cbs.on_attach,
    on_init = function(client, result)
      if st.client_id ~= client.id then
        return
      end
      -- The daemon says its pid (capabilities.experimental.agent.pid):
      -- client.rpc.pid is gone since 0.10.
      st.pid = compat.get(result, 'capabilities', 'experimental', 'agent', 'pid')
      st.ready = true
      attach_all(st, client)
      settle_waiters(st, client, nil)
      -- Neovim lists the client only after on_init returns: a request made
      -- now would find no daemon and start another.
      vim.schedule(function()
        if st.client_id == client.id then
          cbs.on_ready(st)
        end
      end)
    end,
    on_exit = function(code, signal, id)
      -- libuv's exit callback: the API is not allowed here.
      vim.schedule(function()
        on_exit(st, cbs, id, code, signal)
      end)
    end,
  })
  if not client_id then
    settle_waiters(
      st,
      nil,
      'could not start ' .. table.concat(opts.cmd, ' ') .. ' (is it on $PATH? :checkhealth agent_lsp)'
    )
    return
  end
  st.client_id = client_id
end

---Calls cb(client) once the root's daemon is initialized, starting it when
---it is not running; cb(nil, message) when it cannot start.
---@param st agent_lsp.State
---@param cb fun(client: table?, err: string?)
function M.ensure(st, cb)
  local client = M.client(st)
  if client and st.ready then
    cb(client, nil)
    return
  end
  table.insert(st.waiters, cb)
  if not client then
    start(st)
  end
end

---Stops the root's daemon on purpose (no crash message).
---@param st agent_lsp.State
function M.stop(st)
  local client = M.client(st)
  if client then
    st.expected_exits[client.id] = true
    compat.stop(client)
  end
end

-- expect_exit marks every daemon as stopping: Neovim is quitting and stops
-- them itself.
function M.expect_exit()
  for _, st in pairs(states) do
    st.quitting = true
  end
end

return M
