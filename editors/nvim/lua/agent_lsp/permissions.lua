-- :AgentPermissions: the saved permission rules (agent/permissions).
-- Each "Always allow" answer and each rule the user wrote is an item of
-- |vim.ui.select|: picking one removes it; an untrusted workspace rules
-- file (.agents/permissions.json) is an item too: picking it trusts the
-- file as it is now (its allow rules then apply, never to HIGH risk).
local control = require('agent_lsp.control')
local compat = require('agent_lsp.compat')

local M = {}

-- items are the picker's entries: { text, params } with params what
-- agent/permissions is sent when the entry is picked.
function M.items(result)
  local out = {}
  for _, r in ipairs(compat.tbl(result.rules)) do
    local rule = compat.str(r.tool)
    if compat.str(r.pattern) ~= '' then
      rule = rule .. ': ' .. compat.str(r.pattern)
    end
    table.insert(out, {
      text = string.format('remove  %s %s  (%s)', compat.str(r.decision), rule, compat.str(r.source)),
      params = { remove = r.id },
    })
  end
  for _, f in ipairs(compat.tbl(result.files)) do
    if f.source == 'workspace' and f.exists and not f.trusted and compat.str(f.hash) ~= '' then
      table.insert(
        out,
        { text = 'trust   the workspace rules file ' .. compat.str(f.path), params = { trust = f.hash } }
      )
    end
  end
  return out
end

-- show lists the rules of the root's daemon and acts on the one picked.
function M.show(st)
  control.request(st, 'agent/permissions', vim.empty_dict(), function(result)
    for _, f in ipairs(compat.tbl(result.files)) do
      for _, e in ipairs(compat.tbl(f.errors)) do
        vim.notify('agent-lsp: ' .. tostring(e), vim.log.levels.WARN)
      end
    end
    local items = M.items(result)
    if #items == 0 then
      vim.notify('agent-lsp: no saved permission rules ("Always allow" in an approval saves one)', vim.log.levels.INFO)
      return
    end
    vim.ui.select(items, {
      prompt = 'agent-lsp permission rules (pick to remove or trust)',
      kind = 'agent_lsp_permissions',
      format_item = function(item)
        return item.text
      end,
    }, function(choice)
      if not choice then
        return
      end
      control.request(st, 'agent/permissions', choice.params, function(after)
        vim.notify(string.format('agent-lsp: done; %d rules remain', #compat.tbl(after.rules)), vim.log.levels.INFO)
      end)
    end)
  end)
end

return M
