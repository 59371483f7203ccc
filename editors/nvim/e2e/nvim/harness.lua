-- Shared by the scenario scripts: the Go test's config ($E2E_CONFIG), the
-- JSON report, checks, waits, the plugin's setup, and the exit: `cquit N`
-- with 0 when every check passed, 1 for failed checks, 2 for a Lua error,
-- 3 for the watchdog.
local H = {}

H.config = vim.json.decode(table.concat(vim.fn.readfile(os.getenv('E2E_CONFIG')), '\n'))
H.report = { failures = {}, popups = {}, notifications = {} }

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
        filetype = vim.api.nvim_buf_get_option(buf, 'filetype'),
        lines = vim.api.nvim_buf_get_lines(buf, 0, -1, true),
      })
    end
  end
  return floats
end

-- answer_approvals replaces vim.ui.select, as a picker plugin would: it
-- records what it was asked and the floats shown meanwhile, and answers
-- asynchronously (like telescope or dressing) with the title given.
function H.answer_approvals(title)
  vim.ui.select = function(items, opts, on_choice)
    table.insert(H.report.popups, { prompt = opts.prompt, items = items, floats = H.floats() })
    vim.defer_fn(function()
      on_choice(vim.tbl_contains(items, title) and title or nil)
    end, 50)
  end
end

-- capture_notifications records vim.notify messages.
function H.capture_notifications()
  vim.notify = function(msg, level)
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

-- run runs main under a watchdog and exits Neovim with the outcome.
function H.run(main)
  -- A libuv timer fires even while vim.wait or a stuck handler holds the
  -- main loop, where a scheduled callback would not.
  local watchdog = vim.loop.new_timer()
  watchdog:start(H.config.timeout_ms, 0, function()
    table.insert(H.report.failures, 'watchdog: no end within ' .. H.config.timeout_ms .. ' ms')
    pcall(write_report, false)
    os.exit(3)
  end)
  local ok, err = xpcall(main, debug.traceback)
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
