-- The one place that knows Neovim versions apart (0.7.2 to 0.12): the LSP
-- client's method calls and start, highlights, libuv, list checks, UTF-16
-- lengths, option validation, :checkhealth's reporter, JSON null and
-- native inline completion (0.12). The rest of the plugin calls
-- these and never checks a version itself, so `:checkhealth vim.deprecated`
-- on 0.12 lists nothing of ours.
local M = {}

-- 0.11 made the client's functions methods (`client:request`, the dot form
-- is deprecated and goes in 0.13), added vim.lsp.start{attach=false}, the
-- encoding argument of vim.str_utfindex and the positional vim.validate.
local has_011 = vim.fn.has('nvim-0.11') == 1

M.uv = vim.uv or vim.loop

-- float_title: nvim_open_win takes a title, and FloatTitle exists (0.9+;
-- naming an unknown group in 'winhighlight' is E474).
M.float_title = vim.fn.has('nvim-0.9') == 1

M.islist = vim.islist or vim.tbl_islist

-- nonnull returns x, or nil when it is JSON null (vim.NIL: 0.12 decodes
-- null in LSP messages to it, and `vim.NIL or {}` is vim.NIL).
function M.nonnull(x)
  if x == vim.NIL then
    return nil
  end
  return x
end

-- tbl returns x when it is a table, else {}: for nullable or absent
-- fields of the daemon's results.
function M.tbl(x)
  if type(x) == 'table' then
    return x
  end
  return {}
end

-- str returns x when it is a string, else fallback (or '').
function M.str(x, fallback)
  if type(x) == 'string' then
    return x
  end
  return fallback or ''
end

-- get walks a path of keys through nested tables, nil (not vim.NIL) when
-- one is missing or null.
function M.get(x, ...)
  for _, key in ipairs({ ... }) do
    if type(x) ~= 'table' then
      return nil
    end
    x = x[key]
  end
  return M.nonnull(x)
end

if has_011 then
  function M.request(client, method, params, handler, bufnr)
    return client:request(method, params, handler, bufnr)
  end
  function M.request_sync(client, method, params, timeout_ms, bufnr)
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  function M.notify(client, method, params)
    return client:notify(method, params)
  end
  function M.cancel_request(client, id)
    return client:cancel_request(id)
  end
  function M.is_stopped(client)
    return client:is_stopped()
  end
  function M.stop(client, force)
    return client:stop(force)
  end
else
  function M.request(client, method, params, handler, bufnr)
    return client.request(method, params, handler, bufnr)
  end
  function M.request_sync(client, method, params, timeout_ms, bufnr)
    return client.request_sync(method, params, timeout_ms, bufnr)
  end
  function M.notify(client, method, params)
    return client.notify(method, params)
  end
  function M.cancel_request(client, id)
    return client.cancel_request(id)
  end
  function M.is_stopped(client)
    return client.is_stopped()
  end
  function M.stop(client, force)
    return client.stop(force)
  end
end

-- start_client starts a client without attaching it to any buffer (the
-- plugin attaches the root's file buffers itself) and returns its id.
function M.start_client(cfg)
  if has_011 then
    return vim.lsp.start(cfg, {
      attach = false,
      reuse_client = function()
        return false
      end,
    })
  end
  return vim.lsp.start_client(cfg)
end

-- utf16_len is the length of s in UTF-16 code units.
function M.utf16_len(s)
  if has_011 then
    return vim.str_utfindex(s, 'utf-16')
  end
  local _, utf16 = vim.str_utfindex(s)
  return utf16
end

-- validate checks specs, a list of {name, value, type(s), optional}.
function M.validate(specs)
  for _, s in ipairs(specs) do
    if has_011 then
      vim.validate(s[1], s[2], s[3], s[4])
    else
      vim.validate({ [s[1]] = { s[2], s[3], s[4] } })
    end
  end
end

-- highlight colours bytes [col_start, col_end) of row (col_end -1: to the
-- end of the line) with group, as an extmark in ns (nvim_buf_add_highlight
-- is deprecated on 0.11+; extmarks with hl_group exist since 0.5).
function M.highlight(buf, ns, group, row, col_start, col_end)
  if col_end == nil or col_end < 0 then
    local line = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ''
    col_end = #line
  end
  return vim.api.nvim_buf_set_extmark(buf, ns, row, col_start, {
    end_row = row,
    end_col = col_end,
    hl_group = group,
  })
end

-- inline_completion: vim.lsp.inline_completion (ghost text from
-- textDocument/inlineCompletion) exists, from 0.12 on.
M.inline_completion = vim.fn.has('nvim-0.12') == 1

-- enable_inline_completion turns native inline completion on in bufnr, for
-- the clients attached to it that support it. The buffer's marker, not
-- the client's: with {client_id} alone, buffers count as disabled
-- (capability.is_enabled), so buffers attached later got none and a
-- stopped client's state was never cleaned from the buffer.
function M.enable_inline_completion(bufnr)
  vim.lsp.inline_completion.enable(true, { bufnr = bufnr })
end

-- inline_completion_enabled says whether inline completion is on in bufnr.
function M.inline_completion_enabled(bufnr)
  return M.inline_completion and vim.lsp.inline_completion.is_enabled({ bufnr = bufnr })
end

-- accept_inline_completion accepts the suggestion shown in the current
-- buffer (false when none is). With cut, only cut(rest) of it: rest is
-- what the suggestion inserts after the cursor, and cut returns its start
-- (a word, a line), or nil for all of it.
function M.accept_inline_completion(cut)
  if not cut then
    return vim.lsp.inline_completion.get()
  end
  return vim.lsp.inline_completion.get({
    on_accept = function(item)
      if type(item.insert_text) ~= 'string' then
        return item -- a snippet: whole or nothing
      end
      local buf = vim.api.nvim_get_current_buf()
      local cursor = vim.api.nvim_win_get_cursor(0)
      local row, col = cursor[1] - 1, cursor[2]
      local start_row, start_col = row, col
      if item.range then
        start_row, start_col = item.range.start_row, item.range.start_col
      end
      -- What the item replaces before the cursor is typed already: it is
      -- the start of the text (the selected completion item's).
      local typed = ''
      if start_row == row and start_col <= col then
        typed = vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]:sub(start_col + 1, col)
      end
      if start_row ~= row or start_col > col or item.insert_text:sub(1, #typed) ~= typed then
        return item
      end
      local rest = item.insert_text:sub(#typed + 1)
      local part = cut(rest)
      if part == nil or part == rest then
        return item
      end
      -- The part replaces only what is typed, not the line's rest the
      -- whole suggestion would have overwritten.
      item.insert_text = typed .. part
      item.range = vim.range(buf, start_row, start_col, row, col)
      return item
    end,
  })
end

-- health returns :checkhealth's reporter {start, ok, warn, error, info}:
-- vim.health.start/ok/... on 0.10+, vim.health.report_* on 0.8-0.9 (then
-- deprecated), require('health').report_* on 0.7.
function M.health()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  h = (h and h.report_start) and h or require('health')
  return {
    start = h.report_start,
    ok = h.report_ok,
    warn = h.report_warn,
    error = h.report_error,
    info = h.report_info,
  }
end

return M
