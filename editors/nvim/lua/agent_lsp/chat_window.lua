-- The chat's buffers and windows: the transcript buffer above the one-line
-- prompt buffer, in a column on the right of the current tab, as wide as
-- the options say for the editor's width. What goes into the transcript is
-- chat.lua's, the status line chat_status.lua's.
local chat_markdown = require('agent_lsp.chat_markdown')
local config = require('agent_lsp.config')

local M = {}

---The chat's buffers (nil or invalid until made, or once wiped).
---@class agent_lsp.ChatBuffers
---@field transcript integer? the transcript buffer, agent-lsp://chat
---@field input integer? the prompt buffer, agent-lsp://prompt
---@field fresh boolean the transcript buffer was made since fresh() last said so
local buffers = { fresh = false }

---@param buf integer?
---@return boolean
local function valid(buf)
  return buf ~= nil and vim.api.nvim_buf_is_valid(buf)
end

local function make_transcript()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, 'agent-lsp://chat')
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  chat_markdown.register()
  vim.bo[buf].filetype = chat_markdown.filetype
  chat_markdown.highlight(buf)
  vim.bo[buf].modifiable = false
  buffers.transcript, buffers.fresh = buf, true
  return buf
end

local function make_input()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, 'agent-lsp://prompt')
  vim.bo[buf].buftype = 'prompt'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.fn.prompt_setprompt(buf, 'Ask> ')
  vim.fn.prompt_setcallback(buf, function(text)
    -- Keep the prompt buffer to one line: the transcript holds the history.
    vim.schedule(function()
      if valid(buf) then
        vim.api.nvim_buf_set_lines(buf, 0, -1, false, {})
      end
    end)
    if vim.trim(text) ~= '' then
      -- A line typed here is :AgentAsk's prompt. The public API is
      -- required when a line is sent: it requires the chat itself.
      require('agent_lsp').ask(text)
    end
  end)
  -- Slash commands, modes, presets and @files (complete.lua).
  vim.bo[buf].omnifunc = "v:lua.require'agent_lsp.complete'.omnifunc"
  local steer = (config.options.keymaps or {}).steer
  if steer then
    -- The line typed steers the running prompt instead of queueing.
    vim.keymap.set({ 'i', 'n' }, steer, function()
      local text = vim.api.nvim_get_current_line():sub(#vim.fn.prompt_getprompt(buf) + 1)
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, {})
      if vim.trim(text) ~= '' then
        require('agent_lsp').steer(text)
      end
    end, { buffer = buf, desc = 'agent-lsp: steer the running prompt' })
  end
  buffers.input = buf
  return buf
end

---The transcript buffer, made when there is none; made is true when it
---was made by this call (the transcript's state must start afresh).
---@return integer buf
---@return boolean made
function M.transcript()
  if valid(buffers.transcript) then
    return buffers.transcript, false
  end
  return make_transcript(), true
end

---The transcript buffer when there is one (nil: never made, or wiped).
---@return integer?
function M.existing_transcript()
  if valid(buffers.transcript) then
    return buffers.transcript
  end
  return nil
end

---The prompt buffer, made when there is none.
---@return integer
function M.input()
  if not valid(buffers.input) then
    make_input()
  end
  return buffers.input
end

---A window of the current tab showing buf, or nil.
---@param buf integer?
---@return integer?
function M.window_of(buf)
  if buf == nil then
    return nil
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
  return nil
end

---The transcript's window in the current tab, or nil.
---@return integer?
function M.transcript_window()
  return M.window_of(buffers.transcript)
end

---Fits the chat column to the editor's width again (VimResized).
function M.resize()
  local win = M.transcript_window()
  if win then
    vim.api.nvim_win_set_width(win, config.chat_width(vim.o.columns))
  end
end

---Whether bufnr is the transcript or the prompt buffer.
---@param bufnr integer
---@return boolean
function M.is_chat_buffer(bufnr)
  return bufnr == buffers.transcript or bufnr == buffers.input
end

---What show() opened, for focus().
---@class agent_lsp.ChatShown
---@field input_win integer the prompt's window
---@field previous_win integer the window current before show()

---Shows the chat column (transcript above, prompt below) in the current
---tab, making the windows that are not there; the cursor may be left in
---the prompt's window until focus().
---@return agent_lsp.ChatShown
function M.show()
  local opts = config.options.chat
  local buf, input = M.transcript(), M.input()
  local win = M.window_of(buf)
  local current = vim.api.nvim_get_current_win()
  if not win then
    vim.cmd('botright vsplit')
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_win_set_width(win, config.chat_width(vim.o.columns, opts))
    for option, value in pairs({
      wrap = true,
      linebreak = true,
      number = false,
      relativenumber = false,
      signcolumn = 'no',
      winfixwidth = true,
    }) do
      vim.wo[win][option] = value
    end
  end
  local input_win = M.window_of(input)
  if not input_win then
    vim.api.nvim_set_current_win(win)
    vim.cmd('belowright split')
    input_win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(input_win, input)
    vim.api.nvim_win_set_height(input_win, opts.input_height)
    vim.wo[input_win].winfixheight = true
    vim.wo[input_win].number = false
    vim.wo[input_win].relativenumber = false
    vim.wo[input_win].statusline = M.input_statusline()
  end
  return { input_win = input_win, previous_win = current }
end

---The prompt window's status line: what Enter and the steer key do.
---@return string
function M.input_statusline()
  local steer = (config.options.keymaps or {}).steer
  local keys = steer and (', ' .. steer:gsub('%%', '%%%%') .. ' steers') or ''
  return ' agent-lsp: Enter sends (queues while busy)' .. keys .. ', /<C-x><C-o> commands, @ files'
end

---Puts the cursor in the prompt (enter, in Insert mode) or back where it
---was before show().
---@param shown agent_lsp.ChatShown
---@param enter boolean
function M.focus(shown, enter)
  if enter then
    vim.api.nvim_set_current_win(shown.input_win)
    vim.cmd('startinsert!')
  elseif vim.api.nvim_win_is_valid(shown.previous_win) then
    vim.api.nvim_set_current_win(shown.previous_win)
  end
end

---Whether the transcript buffer was made since the last call (the chat
---was wiped): its session's transcript must be redrawn.
---@return boolean
function M.fresh()
  local was = buffers.fresh
  buffers.fresh = false
  return was
end

return M
