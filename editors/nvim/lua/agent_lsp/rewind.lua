-- :AgentRewind: go back to before a prompt of the chat's session. The
-- daemon's agent/checkpoints lists one checkpoint per prompt (oldest
-- first, numbered from 1 as /rewind numbers them); agent/rewind restores
-- the files through one workspace/applyEdit (so |u| in a buffer brings the
-- agent's work back) and drops the conversation from that prompt on.
local chat = require('agent_lsp.chat')
local control = require('agent_lsp.control')
local compat = require('agent_lsp.compat')

local M = {}

local function when(iso)
  return (tostring(iso or ''):gsub('T', ' '):gsub('%..*$', ''):gsub('Z$', ''))
end

-- describe is a checkpoint as a picker shows it. No number of its own:
-- vim.ui.select numbers the items (oldest first, as :AgentRewind N and
-- /rewind N count), and a second number read "1: 1. ...".
function M.describe(cp)
  local files = compat.tbl(cp.files)
  local changed = #files == 0 and 'no files changed' or table.concat(files, ', ')
  local prompt = vim.split(compat.str(cp.prompt), '\n', { plain = true })[1]
  return string.format('%s  %s  (%s)', when(cp.createdAt), prompt, changed)
end

-- summary says what a rewind did, for the chat.
function M.summary(result, cp, n)
  local lines = {
    string.format(
      '↶ rewound to before prompt %d: %s',
      n,
      vim.split(compat.str(cp.prompt), '\n', { plain = true })[1]
    ),
  }
  for _, r in ipairs(compat.tbl(result.restored)) do
    table.insert(lines, string.format('  %s %s', tostring(r.action), tostring(r.path)))
  end
  for _, c in ipairs(compat.tbl(result.conflicts)) do
    table.insert(lines, string.format('  ⚠ conflict %s: %s', tostring(c.path), tostring(c.reason)))
  end
  table.insert(
    lines,
    string.format(
      '  %d messages and %d checkpoints dropped',
      result.droppedMessages or 0,
      result.droppedCheckpoints or 0
    )
  )
  return table.concat(lines, '\n')
end

local function rewind_to(st, session_id, cp, n)
  control.request(st, 'agent/rewind', {
    sessionId = session_id,
    checkpointId = cp.checkpointId,
    restoreFiles = true,
    truncateConversation = true,
  }, function(result)
    chat.open(false)
    local conflicted = type(result.conflicts) == 'table' and #result.conflicts > 0
    chat.note(M.summary(result, cp, n), conflicted and 'AgentLspToolDenied' or 'AgentLspControl')
  end)
end

-- rewind rewinds the chat's session to before its n-th prompt (1: the
-- oldest); without n, picks the checkpoint with vim.ui.select.
function M.rewind(st, n)
  local session_id = st.session_id
  if not session_id then
    vim.notify('agent-lsp: nothing to rewind: the chat has no session yet', vim.log.levels.INFO)
    return
  end
  control.request(st, 'agent/checkpoints', { sessionId = session_id }, function(result)
    local checkpoints = compat.tbl(result.checkpoints)
    if #checkpoints == 0 then
      vim.notify('agent-lsp: nothing to rewind: the session has no checkpoints', vim.log.levels.INFO)
      return
    end
    if n then
      if n < 1 or n > #checkpoints then
        vim.notify(
          string.format('agent-lsp: no checkpoint %d (the session has %d)', n, #checkpoints),
          vim.log.levels.ERROR
        )
        return
      end
      rewind_to(st, session_id, checkpoints[n], n)
      return
    end
    local numbered = {}
    for i, cp in ipairs(checkpoints) do
      numbered[i] = { n = i, checkpoint = cp }
    end
    vim.ui.select(numbered, {
      prompt = 'Rewind to before which prompt? (files restored, later conversation dropped)',
      kind = 'agent_lsp_checkpoint',
      format_item = function(item)
        return M.describe(item.checkpoint)
      end,
    }, function(choice)
      if choice then
        rewind_to(st, session_id, choice.checkpoint, choice.n)
      end
    end)
  end)
end

return M
