-- luacheck's settings for the plugin: Neovim's LuaJIT, `vim` the one
-- global, lines up to 120 columns as StyLua keeps them (.stylua.toml).
std = 'luajit'
max_line_length = 120
exclude_files = { 'lint/node_modules/**' }

-- Of `vim`, the plugin writes only the option and variable tables, as
-- Neovim's API means them to be written (vim.bo[buf].modifiable = false).
local writable = { read_only = false, other_fields = true }
read_globals = {
  vim = {
    other_fields = true,
    fields = { g = writable, b = writable, w = writable, o = writable, bo = writable, wo = writable, env = writable },
  },
}

-- The e2e harness stands in for a picker plugin and watches notifications:
-- it replaces vim.ui.select and vim.notify, as such plugins do.
files['e2e/nvim'] = {
  read_globals = {
    vim = {
      other_fields = true,
      fields = {
        g = writable,
        b = writable,
        w = writable,
        o = writable,
        bo = writable,
        wo = writable,
        env = writable,
        notify = { read_only = false },
        ui = { other_fields = true, fields = { select = { read_only = false }, input = { read_only = false } } },
      },
    },
  },
}
