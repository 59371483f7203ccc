-- Neovim (0.7.2, headless) as a real LSP client of agent-lsp: start the
-- daemon with vim.lsp.start_client, open a file in a buffer, attach, send
-- agent/prompt, answer the approval popup as the test says, and check the
-- buffer afterwards.
--
--   nvim --headless --clean -n -i NONE -u NONE -c "luafile edit_prompt.lua"
--
-- The Go test passes a JSON config in $E2E_CONFIG; the script writes a JSON
-- report to config.report and exits with `cquit N`: 0 when every check
-- passed, 1 for failed checks, 2 for a Lua error, 3 for the watchdog.

local config = vim.json.decode(table.concat(vim.fn.readfile(os.getenv('E2E_CONFIG')), '\n'))
local report = { failures = {}, popups = {}, updates = {} }

-- Plain Lua io, not vim.fn: the watchdog writes from a libuv callback,
-- where the Vim API is not allowed.
local function write_report(ok)
  report.ok = ok
  local f = assert(io.open(config.report, 'w'))
  f:write(vim.json.encode(report))
  f:close()
end

-- The watchdog runs on a libuv timer: it fires even while vim.wait or a
-- stuck handler holds the main loop, where a scheduled callback would not.
local watchdog = (vim.uv or vim.loop).new_timer()
watchdog:start(config.timeout_ms, 0, function()
  table.insert(report.failures, 'watchdog: no end within ' .. config.timeout_ms .. ' ms')
  pcall(write_report, false)
  os.exit(3)
end)

local function check(ok, what)
  if not ok then
    table.insert(report.failures, what)
  end
end

local function buffer_text(bufnr)
  -- Lines joined with "\n", plus the final newline the file has ('eol').
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n') .. '\n'
end

-- Neovim 0.11 made the client's functions methods and added
-- vim.lsp.start{attach=false}; the old forms are deprecated there.
local has_011 = vim.fn.has('nvim-0.11') == 1
local function call(client, name, ...)
  if has_011 then
    return client[name](client, ...)
  end
  return client[name](...)
end
local function start_client(cfg)
  if has_011 then
    return vim.lsp.start(cfg, { attach = false, reuse_client = function()
      return false
    end })
  end
  return vim.lsp.start_client(cfg)
end

local function main()
  local exit_code
  local client_id = start_client({
    name = 'agent-lsp',
    cmd = config.command,
    cmd_cwd = config.root,
    root_dir = config.root,
    offset_encoding = 'utf-16',
    handlers = {
      -- The default asks with inputlist(), which blocks forever headless.
      ['window/showMessageRequest'] = function(_, params)
        table.insert(report.popups, { message = params.message, actions = vim.tbl_map(function(a)
          return a.title
        end, params.actions) })
        for _, action in ipairs(params.actions) do
          if action.title == config.popup_answer then
            return action
          end
        end
        return vim.NIL
      end,
      ['agent/update'] = function(_, params)
        table.insert(report.updates, params)
      end,
    },
    on_exit = function(code)
      exit_code = code
    end,
  })
  if client_id == nil then
    error('start_client returned nil')
  end
  local client = vim.lsp.get_client_by_id(client_id)
  check(vim.wait(10000, function()
    return client.initialized
  end, 10), 'the client did not initialize')
  report.server_info = client.server_capabilities and client.server_capabilities.experimental

  local path = config.root .. '/' .. config.file
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  local before = buffer_text(bufnr)
  check(before == config.original_text, 'buffer before: ' .. before)

  local result, rpc_err
  local ok = call(client, 'request', 'agent/prompt', { prompt = config.prompt }, function(err, res)
    rpc_err, result = err, res
  end, bufnr)
  check(ok, 'client.request refused agent/prompt')
  check(vim.wait(20000, function()
    return result ~= nil or rpc_err ~= nil
  end, 10), 'agent/prompt did not answer')
  check(rpc_err == nil, 'agent/prompt error: ' .. vim.inspect(rpc_err))
  report.result = result
  report.buffer_text = buffer_text(bufnr)
  report.modified = vim.bo[bufnr].modified
  -- Other files the edit may have touched: their buffers, if any.
  report.other_buffers = vim.empty_dict()
  for _, file in ipairs(config.other_files or {}) do
    local other = vim.fn.bufnr(config.root .. '/' .. file)
    if other ~= -1 and vim.api.nvim_buf_is_loaded(other) then
      report.other_buffers[file] = buffer_text(other)
    end
  end

  call(client, 'stop')
  check(vim.wait(5000, function()
    return exit_code ~= nil
  end, 10), 'the daemon did not exit after shutdown')
  report.exit_code = exit_code
end

local ok, err = xpcall(main, debug.traceback)
watchdog:stop()
if not ok then
  table.insert(report.failures, 'lua error: ' .. tostring(err))
  write_report(false)
  vim.cmd('cquit 2')
end
write_report(#report.failures == 0)
vim.cmd(#report.failures == 0 and 'cquit 0' or 'cquit 1')
