-- Markdown highlighting of the chat transcript, whose answers are markdown.
-- The buffer keeps its own filetype (agent_lsp_chat), as CodeCompanion's
-- and avante's chats keep theirs: a markdown filetype would bring the
-- user's markdown ftplugins, language servers and spell settings to a
-- scratch buffer. Treesitter is told to parse that filetype as markdown, so
-- treesitter highlighting starts here and render-markdown.nvim renders the
-- chat once the user lists agent_lsp_chat in its file_types (it attaches by
-- filetype and asks treesitter for the buffer's parser). Without a markdown
-- parser (0.7, or a Neovim built without one) the markdown syntax file
-- highlights the buffer instead.
local M = {}

M.filetype = 'agent_lsp_chat'

local registered = false

---Tells treesitter (0.9+) that the chat's filetype is markdown. Done before
---the filetype is set, so a plugin attaching on FileType finds the parser.
function M.register()
  if registered then
    return
  end
  registered = true
  local language = vim.treesitter and vim.treesitter.language
  if language and language.register then
    pcall(language.register, 'markdown', M.filetype)
  end
end

---Highlights buf as markdown: 'treesitter' when its highlighter started,
---'syntax' when the syntax file was used instead.
---@param buf integer
---@return string
function M.highlight(buf)
  if vim.treesitter and vim.treesitter.start and pcall(vim.treesitter.start, buf, 'markdown') then
    return 'treesitter'
  end
  -- 'syntax' apart from 'filetype': the syntax file without the markdown
  -- ftplugin. Set after the filetype, whose FileType autocommand resets it.
  vim.bo[buf].syntax = 'markdown'
  -- The syntax file marks an underscore inside a word as an error: every
  -- tool line (read_file, run_bash) would be red.
  vim.api.nvim_buf_call(buf, function()
    vim.cmd('silent! syntax clear markdownError')
  end)
  return 'syntax'
end

return M
