-- The plugin's options: defaults, validation, and what the daemon gets as
-- initializationOptions.
local M = {}
local compat = require('agent_lsp.compat')

---The key maps; a key set to false is left out.
---@class agent_lsp.Keymaps
---@field chat string|false normal mode: :AgentChat
---@field inline string|false visual mode: :'<,'>AgentInline {prompt}
---@field cancel string|false normal mode: :AgentCancel
---@field accept_completion string|false insert mode: accept the ghost text
---@field accept_completion_word string|false insert mode: accept its next word
---@field accept_completion_line string|false insert mode: accept its line

---The chat column's size.
---@class agent_lsp.ChatOptions
---@field width number a fraction of the editor's width, or columns when > 1
---@field min_width integer at least this wide, and the code window keeps as many columns
---@field input_height integer the prompt window's height

---The options (:help agent_lsp-setup). setup() takes any of them; the
---rest keep their defaults.
---@class agent_lsp.Options
---@field cmd string[]|string the daemon's command line (a string: one word)
---@field provider 'openai'|'anthropic'|nil the model's dialect (nil: the daemon's own configuration)
---@field model string?
---@field base_url string?
---@field api_key_env string? the name of the variable holding the key; 'none': no key
---@field mcp_servers table? passed through as mcpServers
---@field auto_approve boolean? the daemon approves without asking (CRITICAL is still refused)
---@field mode 'ask'|'plan'|'default'|'auto-edit'|nil the mode new sessions start in
---@field models table[]? model presets for :AgentModel ({id, provider, model, ...})
---@field spend_limit table? spend caps ({sessionUsd, dayUsd, workspaceDayUsd, sessionTokens, warnAt})
---@field completion table? the inline completion model (ghost text, 0.12+), passed through
---@field review boolean review edits hunk by hunk (agent/review); false: approve or deny a whole edit
---@field auto_save boolean write the buffers an approved edit touched
---@field root_dir (fun(bufnr: integer): string?)? a buffer's workspace root
---@field root_markers string[] the files or directories that mark a root
---@field autostart boolean start the daemon when a file of a workspace is opened
---@field keymaps agent_lsp.Keymaps|false false: no key maps
---@field chat agent_lsp.ChatOptions
---@field approval_timeout_ms integer how long an approval waits before it counts as Deny

---@type agent_lsp.Options
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
  -- Spend caps, passed through as spendLimit: {sessionUsd, dayUsd,
  -- workspaceDayUsd, sessionTokens, warnAt}; a turn a cap stopped goes on
  -- with /budget in the chat.
  spend_limit = nil,
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
    steer = '<M-CR>', -- the chat's prompt line (insert, normal): steer the running prompt with the line
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

---The options in force (the defaults until setup()).
---@type agent_lsp.Options
M.options = vim.deepcopy(M.defaults)

---The chat column's width for an editor `columns` wide.
---@param columns integer
---@param opts agent_lsp.ChatOptions? default: the options in force
---@return integer
function M.chat_width(columns, opts)
  opts = opts or M.options.chat
  local want = opts.width <= 1 and math.floor(columns * opts.width) or opts.width
  want = math.max(want, opts.min_width)
  return math.max(1, math.min(want, columns - opts.min_width - 1))
end

---Validates the user's options and makes them, over the defaults, the
---options in force.
---@param user agent_lsp.Options? (partial)
---@return agent_lsp.Options
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
    { 'spend_limit', user.spend_limit, 'table', true },
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

---The options mapped onto the daemon's contract (docs/protocol.md,
---"initializationOptions"); unset fields are left out so the daemon's own
---defaults apply.
---@param opts agent_lsp.Options? default: the options in force
---@return table
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
    spendLimit = object(opts.spend_limit),
  }
  -- An empty Lua table encodes as [], which the daemon's option loader
  -- rejects where it wants an object.
  return object(init)
end

---The variable the daemon reads the key from ('none' when no key is
---needed), for :checkhealth.
---@param opts agent_lsp.Options? default: the options in force
---@return string
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
