-- The plugin's options: defaults, validation, and what the daemon gets as
-- initializationOptions.
local M = {}
local compat = require('agent_lsp.compat')

M.defaults = {
  -- The daemon's command line (a list, or a string for one word).
  cmd = { 'agent-lsp' },
  -- Model settings sent as initializationOptions; nil leaves the daemon's
  -- own configuration (flags, AGENT_LSP_* environment) in charge.
  provider = nil, -- 'openai' (Chat Completions) or 'anthropic' (Messages)
  model = nil,
  base_url = nil,
  api_key_env = nil, -- name of the variable holding the key; 'none': no key
  mcp_servers = nil, -- table, passed through as mcpServers
  auto_approve = nil, -- true: the daemon approves without asking (CRITICAL still refused)
  mode = nil, -- the mode new sessions start in: 'ask', 'plan', 'default' or 'auto-edit'
  models = nil, -- model presets for :AgentModel, passed through as models ({id, provider, model, ...})
  -- The inline completion model (ghost text, Neovim 0.12+), passed through
  -- as completion: {dialect, baseURL, model, apiKeyEnv, languages,
  -- debounceMs, ...}. nil: no completion, no keystroke reaches a model.
  completion = nil,
  -- Review edits hunk by hunk in a float (agent/review); false: the
  -- approval popup takes or leaves a whole edit.
  review = true,
  -- Write the buffers an approved edit touched, so commands see the edit.
  auto_save = true,
  -- The workspace root of a buffer: a function(bufnr) -> path, or nil for
  -- the nearest directory holding one of root_markers, else the cwd.
  root_dir = nil,
  root_markers = { '.git', '.hg', '.jj', 'go.mod', 'package.json', 'Cargo.toml', 'pyproject.toml' },
  -- Start the daemon when a file of a workspace is opened, not only on the
  -- first command.
  autostart = false,
  -- Key maps; set one to false to leave it out.
  keymaps = {
    chat = '<leader>ac', -- normal: :AgentChat
    inline = '<leader>ai', -- visual: :'<,'>AgentInline {prompt}
    cancel = '<leader>ax', -- normal: :AgentCancel
    -- Insert mode, in buffers with ghost text: accept it, its next word,
    -- its line; without a suggestion the key is typed as itself.
    accept_completion = '<Tab>',
    accept_completion_word = '<M-Right>',
    accept_completion_line = '<M-C-Right>',
  },
  chat = {
    -- Of the chat column (vertical split on the right): a fraction of the
    -- editor's width (or columns, when > 1), at least min_width, and never
    -- so wide the code window gets fewer than min_width columns.
    width = 0.4,
    min_width = 40,
    input_height = 2,
  },
  -- How long an approval waits for an answer before it counts as Deny.
  approval_timeout_ms = 10 * 60 * 1000,
}

M.options = vim.deepcopy(M.defaults)

-- chat_width is the chat column's width for an editor `columns` wide.
function M.chat_width(columns, opts)
  opts = opts or M.options.chat
  local want = opts.width <= 1 and math.floor(columns * opts.width) or opts.width
  want = math.max(want, opts.min_width)
  return math.max(1, math.min(want, columns - opts.min_width - 1))
end

function M.set(user)
  user = user or {}
  compat.validate({
    { 'cmd', user.cmd, { 'table', 'string' }, true },
    { 'provider', user.provider, 'string', true },
    { 'model', user.model, 'string', true },
    { 'base_url', user.base_url, 'string', true },
    { 'api_key_env', user.api_key_env, 'string', true },
    { 'mcp_servers', user.mcp_servers, 'table', true },
    { 'mode', user.mode, 'string', true },
    { 'models', user.models, 'table', true },
    { 'completion', user.completion, 'table', true },
    { 'auto_save', user.auto_save, 'boolean', true },
    { 'review', user.review, 'boolean', true },
    { 'root_dir', user.root_dir, 'function', true },
    { 'keymaps', user.keymaps, { 'table', 'boolean' }, true },
  })
  local opts = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), user)
  if user.keymaps == false then
    opts.keymaps = {}
  end
  if type(opts.cmd) == 'string' then
    opts.cmd = { opts.cmd }
  end
  M.options = opts
  return opts
end

-- object returns t, or vim.empty_dict() for an empty table, so that it
-- encodes as {} rather than [].
local function object(t)
  if type(t) == 'table' and next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

-- initialization_options maps the options onto the daemon's contract
-- (docs/protocol.md, "initializationOptions"); unset fields are left out so
-- the daemon's own defaults apply.
function M.initialization_options(opts)
  opts = opts or M.options
  local init = {
    provider = opts.provider,
    model = opts.model,
    baseURL = opts.base_url,
    apiKeyEnv = opts.api_key_env,
    mcpServers = object(opts.mcp_servers),
    autoApprove = opts.auto_approve,
    mode = opts.mode,
    models = opts.models,
    completion = object(opts.completion),
  }
  -- An empty Lua table encodes as [], which the daemon's option loader
  -- rejects where it wants an object.
  return object(init)
end

-- api_key_variable is the variable the daemon reads the key from ('none'
-- when no key is needed), for :checkhealth.
function M.api_key_variable(opts)
  opts = opts or M.options
  local name = opts.api_key_env
  if name == nil or name == '' then
    name = os.getenv('AGENT_LSP_API_KEY_ENV')
  end
  if name == nil or name == '' then
    name = 'DEEPSEEK_API_KEY'
  end
  return name
end

return M
