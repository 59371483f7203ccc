-- Checks the daemon's golden agent/* messages (lsp/testdata/wire, written
-- from the Go types) against the fields the plugin reads and sends
-- (lua/agent_lsp/protocol.lua), under a plain Lua 5.1 interpreter with
-- Debian's lua-dkjson: no Neovim. Run from anywhere:
--   lua5.1 editors/nvim/test/wire.lua lsp/testdata/wire/*.json
-- (lsp's TestNvimPluginReadsTheWire runs it). Exits 1 with one line per
-- problem: a field the plugin uses that a message lacks or types
-- otherwise, a method or update kind the plugin does not list, a listed
-- one no golden file shows.
local here = arg[0]:match('^(.*)/[^/]*$') or '.'
package.path = here .. '/../lua/?.lua;' .. package.path

local json = require('dkjson')
local protocol = require('agent_lsp.protocol')

local problems = {}
local function problem(fmt, ...)
  problems[#problems + 1] = string.format(fmt, ...)
end

-- check compares value, at path, with spec (protocol.lua's language).
local function check(file, path, spec, value)
  if value == nil or value == json.null then
    problem('%s: %s is missing', file, path)
    return
  end
  if type(spec) == 'string' then
    if spec ~= 'any' and type(value) ~= spec then
      problem('%s: %s is a %s, the plugin reads a %s', file, path, type(value), spec)
    end
    return
  end
  if type(value) ~= 'table' then
    problem('%s: %s is a %s, the plugin reads a table', file, path, type(value))
    return
  end
  if spec.list then
    if #value == 0 then
      problem('%s: %s is empty: the golden file shows no element to check', file, path)
    end
    for i, item in ipairs(value) do
      check(file, string.format('%s[%d]', path, i), spec.list, item)
    end
    return
  end
  for name, field in pairs(spec) do
    check(file, path .. '.' .. name, field, value[name])
  end
end

local function read(file)
  local f = assert(io.open(file, 'r'))
  local text = f:read('*a')
  f:close()
  local msg, _, err = json.decode(text, 1, json.null)
  if not msg then
    problem('%s: %s', file, tostring(err))
  end
  return msg
end

local seen_methods, seen_kinds, seen_subagent = {}, {}, false
if #arg == 0 then
  problem('no golden files given')
end
for _, file in ipairs(arg) do
  local name = file:match('[^/]*$')
  local msg = read(file)
  if msg then
    seen_methods[msg.method] = true
    if msg.method == 'agent/update' then
      local kind = msg.params and msg.params.kind
      local spec = protocol.update_kinds[kind]
      seen_kinds[tostring(kind)] = true
      if not spec then
        problem('%s: agent/update kind %s is not in protocol.lua', name, tostring(kind))
      else
        check(name, 'params', protocol.update_header, msg.params)
        check(name, 'params', spec, msg.params)
        if name:match('^agent%.update%.subagent%.') then
          seen_subagent = true
          check(name, 'params', protocol.subagent_header, msg.params)
        end
      end
    else
      local spec = protocol.methods[msg.method]
      if not spec then
        problem('%s: method %s is not in protocol.lua', name, tostring(msg.method))
      else
        check(name, 'params', spec.params or {}, msg.params)
        if spec.result and msg.result == nil then
          problem('%s: %s has no result, protocol.lua reads one', name, msg.method)
        elseif spec.result then
          check(name, 'result', spec.result, msg.result)
        end
      end
    end
  end
end
if #arg > 0 then
  for method in pairs(protocol.methods) do
    if not seen_methods[method] then
      problem('protocol.lua lists %s, which no golden file shows', method)
    end
  end
  if not seen_subagent then
    problem('protocol.lua reads a subagent update header, and no agent.update.subagent.* golden file shows one')
  end
  for kind in pairs(protocol.update_kinds) do
    if not seen_kinds[kind] then
      problem('protocol.lua lists agent/update kind %s, which no golden file shows', kind)
    end
  end
end

table.sort(problems)
for _, p in ipairs(problems) do
  io.stderr:write(p, '\n')
end
if #problems > 0 then
  io.stderr:write(string.format('%d problems: the plugin and lsp/testdata/wire disagree\n', #problems))
  os.exit(1)
end
print(string.format('wire: %d golden messages match the plugin', #arg))
