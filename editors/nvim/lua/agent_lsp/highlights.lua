-- The plugin's highlight groups, each linked by default (a colour scheme or
-- the user may set it) to a group every scheme has: the chat's, the hunk
-- review's and the floats'. plugin/agent_lsp.lua defines them at startup,
-- before any setup(), and again after each :colorscheme (which clears
-- them).
local M = {}

---@type table<string, string> group -> the group it links to
M.links = {
  -- The chat transcript.
  AgentLspReasoning = 'Comment',
  AgentLspUser = 'Title',
  AgentLspTool = 'Special',
  AgentLspToolOk = 'DiagnosticOk',
  AgentLspToolFailed = 'DiagnosticError',
  AgentLspToolDenied = 'DiagnosticWarn',
  AgentLspNote = 'NonText',
  AgentLspError = 'ErrorMsg',
  AgentLspProgress = 'DiagnosticInfo',
  AgentLspPlan = 'Label',
  AgentLspPlanActive = 'DiagnosticWarn',
  AgentLspPlanDone = 'Comment',
  AgentLspControl = 'Special',
  AgentLspQueued = 'Comment', -- the waiting messages at the chat's end
  -- The hunk review.
  AgentLspReviewAccepted = 'DiffAdd',
  AgentLspReviewRejected = 'DiffDelete',
  AgentLspReviewHeader = 'Title',
  AgentLspReviewHelp = 'Comment',
  -- The floats' own groups, linked to the editor's normal colours: 0.7's
  -- NormalFloat is Pmenu (light pink on magenta in the default scheme).
  AgentLspFloat = 'Normal',
  AgentLspFloatBorder = 'Comment',
  AgentLspFloatTitle = 'Title',
  AgentLspFloatCursorLine = 'Visual',
}

---Defines every group as a default link (a group already set is kept).
function M.define()
  for group, target in pairs(M.links) do
    if target == 'DiagnosticOk' and vim.fn.hlexists('DiagnosticOk') == 0 then
      target = 'String' -- DiagnosticOk is 0.9+
    end
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

---Defines the groups now and after every :colorscheme.
function M.setup()
  M.define()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('agent_lsp_highlights', { clear = true }),
    callback = M.define,
    desc = 'agent-lsp: define the default highlight groups again',
  })
end

return M
