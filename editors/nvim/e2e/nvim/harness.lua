-- Shared by the scenario scripts: the Go test's config ($E2E_CONFIG), the
-- JSON report, checks, waits, the plugin's setup, and the exit: `cquit N`
-- with 0 when every check passed, 1 for failed checks, 2 for a Lua error,
-- 3 for the watchdog.
local H = {}

H.uv = vim.uv or vim.loop

H.config = vim.json.decode(table.concat(vim.fn.readfile(os.getenv('E2E_CONFIG')), '\n'))
H.report = { failures = {}, popups = {}, notifications = {}, messages = {} }

-- Messages a scenario expects (Lua patterns, H.allow_message): anything
-- else in :messages, or notified at WARN or ERROR, fails the scenario, so
-- a warning or deprecation message on any Neovim version is caught.
-- Neovim prints the label of every workspace/applyEdit and 0.10 the start
-- of :checkhealth, at no level.
H.allowed = { '^Workspace edit agent: ', '^Running healthchecks' }
local warned = {}

function H.allow_message(pattern)
  table.insert(H.allowed, pattern)
end

local function allowed(msg)
  for _, p in ipairs(H.allowed) do
    if msg:find(p) then
      return true
    end
  end
  return false
end

local function watch(msg, level)
  if (level or vim.log.levels.INFO) >= vim.log.levels.WARN then
    table.insert(warned, tostring(msg))
  end
end

local original_notify = vim.notify
vim.notify = function(msg, level, opts)
  watch(msg, level)
  return original_notify(msg, level, opts)
end

-- Plain Lua io: the watchdog writes from a libuv callback.
local function write_report(ok)
  H.report.ok = ok
  local f = assert(io.open(H.config.report, 'w'))
  f:write(vim.json.encode(H.report))
  f:close()
end

function H.check(ok, what)
  if not ok then
    table.insert(H.report.failures, what)
  end
  return ok
end

-- wait runs the event loop until cond() holds; a check fails otherwise.
function H.wait(ms, cond, what)
  return H.check(vim.wait(ms, cond, 10), 'timed out waiting for ' .. what)
end

function H.buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n') .. '\n'
end

function H.read_file(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local text = f:read('*a')
  f:close()
  return text
end

-- buffer_named finds a buffer by its full name.
function H.buffer_named(name)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == name then
      return b
    end
  end
end

function H.chat_lines()
  local b = H.buffer_named('agent-lsp://chat')
  return b and vim.api.nvim_buf_get_lines(b, 0, -1, true) or {}
end

function H.chat_text()
  return table.concat(H.chat_lines(), '\n')
end

-- transcript returns the chat lines with their highlight groups.
function H.transcript()
  local buf = H.buffer_named('agent-lsp://chat')
  if not buf then
    return {}
  end
  local ns = vim.api.nvim_get_namespaces()['agent_lsp_chat']
  local groups = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    local row, details = mark[2], mark[4] or {}
    if details.hl_group then
      groups[row] = groups[row] or {}
      table.insert(groups[row], details.hl_group)
    end
  end
  local lines = {}
  for i, text in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, true)) do
    table.insert(lines, { text = text, groups = groups[i - 1] or {} })
  end
  return lines
end

-- window_of returns a window showing buf.
function H.window_of(buf)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
end

-- feed types keys as the user would, and runs them to the end.
function H.feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'xt', false)
end

-- feed_typed queues keys as if typed, for the mode the editor is in now
-- (from a timer while a feed waits in Insert mode).
function H.feed_typed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 't', false)
end

function H.status()
  return require('agent_lsp').status()
end

-- wait_prompt_end waits for the running prompt to end and returns how it
-- ended (status().last).
function H.wait_prompt_end(ms, what)
  H.wait(ms, function()
    local s = H.status()
    return not s.running and s.last ~= nil
  end, what)
  return H.status().last
end

-- float_lines returns the lines of the floating windows open now.
function H.floats()
  local floats = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      local buf = vim.api.nvim_win_get_buf(win)
      table.insert(floats, {
        winhighlight = vim.wo[win].winhighlight,
        filetype = vim.bo[buf].filetype,
        lines = vim.api.nvim_buf_get_lines(buf, 0, -1, true),
      })
    end
  end
  return floats
end

-- answer_approvals replaces vim.ui.select, as a picker plugin would: it
-- records what it was asked (the items as the picker shows them, through
-- format_item) and the floats shown meanwhile, and answers asynchronously
-- (like telescope or dressing) with the item shown as title.
function H.answer_approvals(title)
  vim.ui.select = function(items, opts, on_choice)
    local shown = vim.tbl_map(opts.format_item or tostring, items)
    table.insert(H.report.popups, { prompt = opts.prompt, kind = opts.kind, items = shown, floats = H.floats() })
    vim.defer_fn(function()
      for i, s in ipairs(shown) do
        if s == title then
          on_choice(items[i], i)
          return
        end
      end
      on_choice(nil, nil)
    end, 50)
  end
end

-- record_approvals records each agent/approve request the plugin handles
-- and its answer (H.report.approvals). Called before setup(): the client
-- takes its handlers when it starts.
function H.record_approvals()
  H.report.approvals = {}
  local approval = require('agent_lsp.approval')
  local approve = approval.approve
  approval.approve = function(err, params, ctx, cfg)
    local answer = approve(err, params, ctx, cfg)
    table.insert(H.report.approvals, { params = params, answer = answer })
    return answer
  end
end

-- capture_notifications records vim.notify messages.
function H.capture_notifications()
  vim.notify = function(msg, level)
    watch(msg, level)
    table.insert(H.report.notifications, { message = msg, level = level })
  end
end

-- setup configures the plugin for the fake model, through the options a
-- user sets (they reach the daemon as initializationOptions).
function H.setup(extra)
  local opts = {
    cmd = H.config.command,
    provider = 'openai',
    base_url = H.config.base_url,
    api_key_env = 'none',
    model = 'deepseek-flash',
  }
  require('agent_lsp').setup(vim.tbl_extend('force', opts, extra or {}))
end

-- check_messages fails the scenario on unexpected :messages lines or
-- warnings, and on 0.11+ on anything `:checkhealth vim.deprecated` lists
-- (the plugin's calls and the harness's).
local function check_messages()
  for _, line in ipairs(vim.split(vim.fn.execute('messages'), '\n', { trimempty = true })) do
    table.insert(H.report.messages, line)
    if not allowed(line) then
      table.insert(H.report.failures, ':messages has ' .. line)
    end
  end
  for _, msg in ipairs(warned) do
    if not allowed(msg) then
      table.insert(H.report.failures, 'warning notified: ' .. msg)
    end
  end
  if vim.fn.has('nvim-0.11') == 0 then
    return
  end
  vim.cmd('checkhealth vim.deprecated')
  local health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  H.report.deprecated = health
  local text = table.concat(health, '\n')
  H.check(text:find('vim.deprecated', 1, true) ~= nil, 'checkhealth vim.deprecated did not run:\n' .. text)
  H.check(not text:find('WARNING', 1, true), 'checkhealth vim.deprecated lists:\n' .. text)
end

-- setup_bare configures the plugin as `setup({})` does, with the model
-- given as the daemon's flags: no initializationOptions at all, which must
-- reach the daemon as {} (an empty Lua table encodes as [], which it
-- warns about).
function H.setup_bare()
  local cmd = vim.deepcopy(H.config.command)
  vim.list_extend(
    cmd,
    { '--provider', 'openai', '--base-url', H.config.base_url, '--api-key-env', 'none', '--model', 'deepseek-flash' }
  )
  require('agent_lsp').setup({ cmd = cmd })
end

-- run runs main under a watchdog and exits Neovim with the outcome.
function H.run(main)
  -- A libuv timer fires even while vim.wait or a stuck handler holds the
  -- main loop, where a scheduled callback would not.
  local watchdog = H.uv.new_timer()
  watchdog:start(H.config.timeout_ms, 0, function()
    table.insert(H.report.failures, 'watchdog: no end within ' .. H.config.timeout_ms .. ' ms')
    pcall(write_report, false)
    os.exit(3)
  end)
  local ok, err = xpcall(main, debug.traceback)
  if ok then
    ok, err = xpcall(check_messages, debug.traceback)
  end
  watchdog:stop()
  if not ok then
    table.insert(H.report.failures, 'lua error: ' .. tostring(err))
    write_report(false)
    vim.cmd('cquit 2')
  end
  write_report(#H.report.failures == 0)
  vim.cmd(#H.report.failures == 0 and 'cquit 0' or 'cquit 1')
end

return H
