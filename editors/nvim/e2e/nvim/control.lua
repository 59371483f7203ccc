-- Steering the chat's session: :AgentMode picked with vim.ui.select (ask)
-- before the first prompt, a prompt, the :AgentModel picker, :AgentModel
-- with a preset, a second prompt; then, in the prompt line as a user types
-- them, `/` + <C-x><C-o> (the items offered), `/mo` + <C-x><C-o> + ` plan`
-- + <CR> (a /mode command), and a prompt with two @-mentions, the first
-- completed with <C-x><C-o>; and :AgentAsk's command-line completion.
local H = dofile(os.getenv('E2E_HARNESS'))

local captured
-- capture records the completion offered now (called with <Cmd> while
-- the completion menu is open).
function _G.e2e_capture_completion()
  local info = vim.fn.complete_info({ 'items', 'mode' })
  captured = { mode = info.mode, words = vim.tbl_map(function(item)
    return item.word
  end, info.items or {}) }
end

local function statusline()
  local win = H.window_of(H.buffer_named('agent-lsp://chat'))
  return win and vim.api.nvim_eval_statusline(vim.wo[win].statusline, { winid = win }).str or ''
end

local function input_line()
  return vim.api.nvim_buf_get_lines(H.buffer_named('agent-lsp://prompt'), 0, -1, true)[1] or ''
end

H.run(function()
  local cfg = H.config
  H.setup({
    models = {
      {
        id = 'fake-big',
        provider = 'openai',
        model = cfg.big_model,
        baseURL = H.config.base_url,
        apiKeyEnv = 'none',
        contextWindow = 1000000,
        prices = { input = 1, cachedInput = 0.1, output = 2 },
      },
    },
  })
  vim.cmd('AgentChat')
  vim.cmd('stopinsert')

  -- `/` + <C-x><C-o> at once, before the daemon has answered: the menu
  -- opens when the commands arrive. A timer watches it, as the user's eyes
  -- would, and leaves Insert mode.
  local waited = 0
  local timer
  timer = vim.fn.timer_start(20, function()
    waited = waited + 20
    local info = vim.fn.complete_info({ 'items', 'mode' })
    if #(info.items or {}) > 0 or waited > 10000 then
      vim.fn.timer_stop(timer)
      _G.e2e_capture_completion()
      H.feed_typed('<C-e><Esc>')
    end
  end, { ['repeat'] = -1 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A/<C-x><C-o>', true, false, true), 'x!', false)
  H.report.early_completion = captured
  vim.api.nvim_buf_set_lines(H.buffer_named('agent-lsp://prompt'), 0, -1, true, {})
  vim.cmd('wincmd t')

  -- :AgentMode without a mode: the picker.
  vim.ui.select = function(items, opts, on_choice)
    H.report.mode_items = vim.tbl_map(opts.format_item, items)
    for _, item in ipairs(items) do
      if item.name == 'ask' then
        on_choice(item)
      end
    end
  end
  vim.cmd('AgentMode')
  H.wait(10000, function()
    return H.status().mode == 'ask'
  end, 'the mode to become ask')
  H.report.statusline_ask = statusline()

  vim.cmd('AgentAsk ' .. cfg.first_prompt)
  H.report.first_last = H.wait_prompt_end(20000, 'the first prompt to end')

  -- :AgentModel without a preset: the picker (closed), then with one.
  vim.ui.select = function(items, opts, on_choice)
    H.report.model_items = vim.tbl_map(opts.format_item, items)
    on_choice(nil)
  end
  vim.cmd('AgentModel')
  H.wait(5000, function()
    return H.report.model_items ~= nil
  end, 'the model picker')
  vim.cmd('AgentModel fake-big')
  H.wait(5000, function()
    return H.status().model == cfg.big_model
  end, 'the model to switch')
  H.report.statusline_model = statusline()
  H.report.model_completion = vim.fn.getcompletion('AgentModel fake', 'cmdline')
  H.report.mode_completion = vim.fn.getcompletion('AgentMode a', 'cmdline')

  vim.cmd('AgentAsk ' .. cfg.second_prompt)
  H.report.second_last = H.wait_prompt_end(20000, 'the second prompt to end')

  -- The prompt line, as a user types in it.
  vim.api.nvim_set_current_win(H.window_of(H.buffer_named('agent-lsp://prompt')))
  H.feed('A/<C-x><C-o><Cmd>lua e2e_capture_completion()<CR><C-e><Esc>')
  H.report.slash_completion = captured
  vim.api.nvim_buf_set_lines(H.buffer_named('agent-lsp://prompt'), 0, -1, true, {})
  H.feed('A/mo<C-x><C-o><Cmd>lua e2e_capture_completion()<CR> plan<CR>')
  H.report.mo_completion = captured
  H.wait(10000, function()
    return H.status().mode == 'plan' and not H.status().running
  end, '/mode plan to set the mode')
  H.report.mode_last = H.status().last
  H.report.statusline_plan = statusline()

  H.feed('A@ma<C-x><C-o><Esc>')
  H.report.mention_line = input_line()
  H.feed('A ' .. cfg.mention_prompt .. '<CR>')
  H.report.third_last = H.wait_prompt_end(20000, 'the prompt with mentions to end')

  H.report.ask_completion = {
    slash = vim.fn.getcompletion('AgentAsk /co', 'cmdline'),
    mode = vim.fn.getcompletion('AgentAsk /mode a', 'cmdline'),
    mention = vim.fn.getcompletion('AgentAsk look at @ma', 'cmdline'),
  }
  H.report.transcript = H.transcript()
  H.report.status = H.status()
end)
