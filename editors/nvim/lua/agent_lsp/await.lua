-- One value from an asynchronous picker (vim.ui.select, vim.ui.input:
-- telescope or dressing answer later) inside a server request's handler,
-- whose return value is the answer: the approval and the review wait
-- here.
local config = require('agent_lsp.config')

local M = {}

-- can_yield: Neovim 0.10+ runs a server request's handler in a coroutine
-- (vim.schedule(coroutine.wrap(...))), so it may yield until the picker
-- answers; 0.7.2 runs it on the main thread, which must block in vim.wait.
-- PUC Lua cannot yield across the pcall around the handler: LuaJIT only.
local function running_coroutine()
  local co, is_main = coroutine.running()
  if co ~= nil and not is_main and jit ~= nil then
    return co
  end
  return nil
end

---Runs start(done), which calls done(value) once, maybe later (an
---asynchronous picker or input), and returns that value: it yields when
---the handler runs in a coroutine, else blocks in vim.wait (Neovim before
---0.10). Unanswered within approval_timeout_ms, it returns nil.
---@param start fun(done: fun(value: any))
---@return any
function M.await(start)
  local finished, value = false, nil
  local co = running_coroutine()
  local waiting = false
  start(function(v)
    if finished then
      return
    end
    finished, value = true, v
    if waiting and co then
      vim.schedule(function()
        coroutine.resume(co)
      end)
    end
  end)
  if not finished then
    waiting = true
    if co then
      coroutine.yield()
    else
      vim.wait(config.options.approval_timeout_ms, function()
        return finished
      end, 20)
    end
  end
  return value
end

return M
