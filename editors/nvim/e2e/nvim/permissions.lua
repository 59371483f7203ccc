-- :AgentPermissions: the workspace's rules file is listed untrusted; the
-- picker's trust item trusts it; listed again, it offers no trust item and
-- its deny rule's item removes the rule from the file. Reports each
-- picker's items and the file at the end.
local H = dofile(os.getenv('E2E_HARNESS'))

H.run(function()
  H.setup()
  H.capture_notifications()
  local pickers = {}
  local function pick(pattern)
    vim.ui.select = function(items, opts, on_choice)
      local shown = vim.tbl_map(opts.format_item, items)
      table.insert(pickers, { prompt = opts.prompt, kind = opts.kind, items = shown })
      for i, text in ipairs(shown) do
        if text:find(pattern) then
          on_choice(items[i], i)
          return
        end
      end
      on_choice(nil)
    end
  end
  local function done(n)
    return function()
      local count = 0
      for _, note in ipairs(H.report.notifications) do
        if tostring(note.message):find('rules remain', 1, true) then
          count = count + 1
        end
      end
      return count >= n
    end
  end

  pick('^trust ')
  vim.cmd('AgentPermissions')
  H.wait(15000, done(1), 'the trust to be answered')
  pick('^remove  deny ')
  vim.cmd('AgentPermissions')
  H.wait(15000, done(2), 'the removal to be answered')
  H.report.pickers = pickers
  H.report.file = H.read_file(H.config.root .. '/.agents/permissions.json')
end)
