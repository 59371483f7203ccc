-- The compatibility layer on this Neovim version: JSON null, the UTF-16
-- length, validation, extmark highlights, the client's method calls and
-- start (against the real daemon). Reports what it found.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  local compat = require('agent_lsp.compat')
  local decoded = vim.json.decode('{"items": null, "text": null, "nested": {"pid": null}}')
  H.check(compat.nonnull(decoded.items) == nil, 'nonnull(null) is not nil')
  H.check(type(compat.tbl(decoded.items)) == 'table' and #compat.tbl(decoded.items) == 0, 'tbl(null) is not {}')
  H.check(compat.str(decoded.text) == '', 'str(null) is not ""')
  H.check(compat.get(decoded, 'nested', 'pid') == nil, 'get through null is not nil')
  H.check(compat.get(decoded, 'missing', 'pid') == nil, 'get through a missing key is not nil')
  H.report.utf16 = compat.utf16_len('wörld 🎉')
  H.check(compat.islist({ 1, 2 }) and not compat.islist({ a = 1 }), 'islist')
  H.report.validate_error = not pcall(compat.validate, { { 'model', 42, 'string', true } })
  -- The statusline's spend caps (round_end's spend): the session's cost
  -- against its cap, or the token cap of a model without a price.
  local statusline = require('agent_lsp.statusline')
  H.report.spend_statusline =
    statusline.text({ state = 'idle', totals = { cost = 0.82 }, spend = { sessionCapUsd = 1 } })
  H.report.token_statusline =
    statusline.text({ state = 'idle', totals = {}, spend = { sessionTokens = 15000, tokenCap = 2000000 } })
  H.check(pcall(compat.validate, { { 'model', nil, 'string', true } }), 'validate refused an optional nil')

  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, true, { 'héllo wörld', '' })
  local ns = vim.api.nvim_create_namespace('agent_lsp_compat_test')
  compat.highlight(buf, ns, 'Title', 0, 0, -1)
  compat.highlight(buf, ns, 'Comment', 1, 0, -1)
  local marks = vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })
  H.report.marks = vim.tbl_map(function(m)
    return { row = m[2], col = m[3], end_col = m[4].end_col, group = m[4].hl_group }
  end, marks)

  -- The daemon started and asked through compat: the pid from initialize.
  H.setup()
  vim.cmd('edit ' .. vim.fn.fnameescape(H.config.root .. '/main.go'))
  local tools
  require('agent_lsp.daemon').ensure(require('agent_lsp.daemon').state(H.status().root), function(client)
    compat.request(client, 'agent/tools', vim.empty_dict(), function(err, result)
      tools = err and -1 or #compat.tbl(compat.get(result, 'tools'))
    end)
  end)
  H.wait(10000, function()
    return tools ~= nil
  end, 'agent/tools through compat.request')
  H.report.tools = tools
  H.report.pid = H.status().pid
end)
