// The hostile folder's steps (issue 24): a folder whose .vscode/settings.json
// sets every user-only setting (the daemon binary, MCP servers, the model's
// endpoint and dialect, the key variable, the completion endpoint), and an
// untrusted folder (restricted mode). The Go test
// (e2e/hostile_scenario_test.go) checks what no step can see: the marker
// files, the sink, what the fake model was sent.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './ui.mjs';

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** toasts are the texts of VS Code's notification toasts shown now. */
async function toasts(ui) {
  return ui.page.$$eval('.notifications-toasts .notification-toast .notification-list-item-message', (els) => els.map((e) => e.textContent ?? ''));
}

async function openFolder(ui, cfg, url) {
  await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
  await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
  await waitFor(`${cfg.file} in the explorer`, () => ui.page.$(`.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`), cfg.timeoutMs);
}

/** ask sends prompt in the chat and waits for the model's answer. */
async function ask(ui, cfg, prompt, answer) {
  await ui.chatPrompt(prompt);
  let last = [];
  await waitFor(`the answer ${JSON.stringify(answer)}`, async () => {
    last = await ui.chatEntries();
    return last.some((e) => e.cls === 'text' && e.text === answer);
  }, cfg.timeoutMs).catch((err) => {
    throw new Error(`${err.message}; the chat shows ${JSON.stringify(last.map((e) => `${e.cls}: ${e.text.slice(0, 100)}`))}`);
  });
  await waitFor('the prompt to end', async () => (await ui.chatStatus()) === '', cfg.timeoutMs);
  return last;
}

async function showChat(ui) {
  for (let attempt = 1; ; attempt++) {
    await ui.command('agent-lsp: Show Chat');
    try {
      return await ui.chat(attempt < 3 ? 8000 : 20_000);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

export const hostileSettingsSteps = [
  ['open-hostile-folder', async (ui, cfg, url) => {
    await openFolder(ui, cfg, url);
    let seen = [];
    const notice = await waitFor('the ignored-settings notice', async () => {
      seen = await toasts(ui);
      return seen.find((t) => t.includes('set by this folder are ignored'));
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; toasts: ${JSON.stringify(seen)}`);
    });
    ui.log(`notice: ${notice}`);
    // The toast slides in: the screenshot waits until it is all on screen.
    await waitFor('the notice in full view', () => ui.page.$$eval('.notifications-toasts .notification-toast',
      (els) => els.length > 0 && els.every((e) => e.getBoundingClientRect().bottom <= window.innerHeight)), cfg.timeoutMs);
    for (const key of cfg.ignoredKeys) check(notice.includes(key), `the notice does not name ${key}: ${notice}`);
    await ui.shot('hostile-settings-notice');
  }],

  ['prompt-reaches-the-users-model', async (ui, cfg) => {
    await showChat(ui);
    await ask(ui, cfg, cfg.hostilePrompt, cfg.hostileAnswer);
    await ui.shot('hostile-settings-answered');
  }],
];

export const restrictedSteps = [
  ['open-untrusted-folder', async (ui, cfg, url) => {
    await openFolder(ui, cfg, url);
    await showChat(ui);
    let last = [];
    await waitFor('the restricted-mode line in the chat', async () => {
      last = await ui.chatEntries();
      return last.some((e) => e.cls === 'notice' && e.text.startsWith('Restricted mode:'));
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; the chat shows ${JSON.stringify(last)}`);
    });
  }],

  ['edit-and-command-refused', async (ui, cfg) => {
    const entries = await ask(ui, cfg, cfg.restrictedPrompt, cfg.restrictedAnswer);
    const cards = entries.filter((e) => e.cls.startsWith('tool '));
    check(cards.length === 2 && cards.every((c) => c.cls.includes('failed')), `tool cards ${JSON.stringify(cards)}`);
    check(!(await ui.page.$('.monaco-dialog-box')), 'a dialog asked about a call restricted mode refuses');
    check(readFileSync(join(cfg.workspace, cfg.file), 'utf8') === cfg.original, `${cfg.file} changed`);
    await ui.shot('restricted-chat');
  }],
];
