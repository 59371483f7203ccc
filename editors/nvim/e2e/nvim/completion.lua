-- Inline completion in a real buffer: the plugin set up with or without
-- the completion option (config.completion), a Go file opened, text typed
-- in Insert mode (config.type) so that Neovim asks automatically; with
-- config.accept_keys, each waits for the ghost text (the extmarks of
-- Neovim's inline completion namespace), records it and types the key.
-- Reports the server's capability, whether completion is on in the buffer,
-- the ghost texts, the status line meanwhile and the buffer. With
-- config.wait_status, Insert mode lasts until the status line shows it.
local H = dofile(os.getenv('E2E_HARNESS'))
local cfg = H.config

local function clients_of(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf)) -- 0.7: a map by id
end

-- ghost is the inline completion's virtual text in buf, or nil.
local function ghost(buf)
  local ns = vim.api.nvim_get_namespaces()['nvim.lsp.inline_completion']
  if not ns then
    return nil
  end
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    local d = mark[4] or {}
    if d.virt_text then
      local lines = { table.concat(vim.tbl_map(function(c)
        return c[1]
      end, d.virt_text)) }
      for _, vl in ipairs(d.virt_lines or {}) do
        table.insert(
          lines,
          table.concat(vim.tbl_map(function(c)
            return c[1]
          end, vl))
        )
      end
      return { text = table.concat(lines, '\n'), row = mark[2], col = mark[3] }
    end
  end
end

H.run(function()
  for _, p in ipairs(cfg.allow_messages or {}) do
    H.allow_message(p)
  end
  H.capture_notifications()
  H.setup({ completion = cfg.completion })
  vim.cmd('edit ' .. vim.fn.fnameescape(H.config.root .. '/' .. cfg.file))
  local buf = vim.api.nvim_get_current_buf()
  -- The typed text is the whole line, whatever indent each version's Go
  -- support would add.
  vim.bo[buf].autoindent, vim.bo[buf].smartindent, vim.bo[buf].cindent, vim.bo[buf].indentexpr = false, false, false, ''
  local daemon = require('agent_lsp.daemon')
  daemon.ensure(daemon.state(H.status().root), function() end)
  H.wait(15000, function()
    return #clients_of(buf) > 0
  end, 'the daemon attached to the buffer')
  local client = clients_of(buf)[1]
  H.report.provider = client ~= nil and client.server_capabilities.inlineCompletionProvider ~= nil
  local compat = require('agent_lsp.compat')
  -- Capabilities start in a callback the attach scheduled: after it runs.
  local barrier = false
  vim.schedule(function()
    barrier = true
  end)
  H.wait(5000, function()
    return barrier
  end, 'the scheduled callbacks')
  H.report.enabled = compat.inline_completion_enabled(buf) and true or false
  H.report.tab_mapped = vim.fn.maparg('<Tab>', 'i', false, true).buffer == 1

  vim.api.nvim_win_set_cursor(0, { cfg.line, 0 })
  local keys = vim.deepcopy(cfg.accept_keys or {})
  H.report.ghosts, H.report.statuslines = {}, {}
  local waited, text_before, timer = 0, nil, nil
  timer = vim.fn.timer_start(20, function()
    waited = waited + 20
    local line = require('agent_lsp').statusline()
    if H.report.statuslines[#H.report.statuslines] ~= line then
      table.insert(H.report.statuslines, line)
    end
    local g = ghost(buf)
    if text_before and H.buffer_text(buf) ~= text_before then
      text_before = nil -- the accept landed: wait for the next ghost
    end
    local status_wait = cfg.wait_status and not line:find(cfg.wait_status, 1, true)
    if (#keys == 0 and not status_wait) or waited > 15000 then
      if text_before == nil then
        vim.fn.timer_stop(timer)
        H.feed_typed('<Esc>')
      end
      return
    end
    if text_before == nil and g then
      table.insert(H.report.ghosts, g)
      text_before = H.buffer_text(buf)
      H.feed_typed(table.remove(keys, 1))
    end
  end, { ['repeat'] = -1 })
  -- Typed literally ('n': a <Tab> in the text is not the accept key).
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(cfg.type, true, false, true), 'nx!', false)
  H.check(#keys == 0, 'no ghost text to accept with ' .. table.concat(keys, ' '))
  H.check(
    not cfg.wait_status or (H.report.statuslines[#H.report.statuslines] or ''):find(cfg.wait_status, 1, true),
    'the status line never showed ' .. tostring(cfg.wait_status)
  )
  H.report.buffer_text = H.buffer_text(buf)
  local completion = require('agent_lsp.completion')
  H.report.cuts = {}
  for _, rest in ipairs({ 'a + b', ' + b', '(x, y)\nreturn z', 'wörld 🎉 x', '\n\tz := 1\n' }) do
    table.insert(H.report.cuts, { word = completion.word(rest), line = completion.line(rest) })
  end
  H.report.completion = H.status().completion
  vim.cmd('checkhealth agent_lsp')
  H.report.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
end)
