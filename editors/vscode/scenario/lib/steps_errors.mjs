// The first hour's mistakes and where the chat is (issue 25, items 7 and
// 2): the chat is opened from its activity-bar icon and from its key,
// its empty state says what to ask; then, as a newcomer meets them, no
// binary, no key, a wrong key and a model server that is down each give
// exactly one notification, in
// one line, with the button that fixes it, and Set API Key keeps the
// prompt the missing key stopped. The settings are changed as a user
// does, in the user settings file.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** toasts are VS Code's notification toasts shown now: message and buttons. */
function toasts(ui) {
  return ui.page.$$eval('.notifications-toasts .notification-toast', (els) => els.filter((e) => e.offsetParent !== null).map((e) => ({
    message: e.querySelector('.notification-list-item-message')?.textContent ?? '',
    buttons: [...e.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => b.textContent ?? ''),
  })));
}

/**
 * oneToast waits for a toast matching re, then lets the other paths that
 * meet the same mistake (the start, the daemon's warning, the prompt)
 * have their turn, and checks it is the only one from agent-lsp.
 */
async function oneToast(ui, cfg, re, what) {
  await waitFor(what, async () => (await toasts(ui)).some((t) => re.test(t.message)), cfg.timeoutMs);
  // A second message would follow within the prompt's end: wait for it, then count.
  await waitFor('the prompt to end', () => ui.chatEval((doc) => /Failed:/.test(doc.getElementById('transcript')?.innerText ?? '')), cfg.timeoutMs);
  await sleep(1500); // the behaviour under test: nothing more arrives after the first message
  const ours = (await toasts(ui)).filter((t) => /agent-lsp/.test(t.message));
  check(ours.length === 1, `${what}: ${ours.length} agent-lsp notifications, want 1: ${JSON.stringify(ours)}`);
  const [t] = ours;
  check(!/[{}]|round \d|Error:|at .*\.js/.test(t.message), `${what}: the message shows JSON, a round or a stack: ${t.message}`);
  return t;
}

async function clearToasts(ui) {
  await ui.command('Notifications: Clear All Notifications');
  await waitFor('no toast', async () => (await toasts(ui)).length === 0, 10_000);
}

/** setUserSettings changes the user's settings as the settings editor would: both files code-server reads. */
function setUserSettings(cfg, change) {
  for (const dir of ['User', 'Machine']) {
    const file = join(cfg.home, 'user-data', dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...change }, null, 2));
  }
}

/**
 * watchRestart starts recording the agent status bar item's texts; the
 * promise it returns waits until the daemon was seen down and is up again
 * (a settings change restarts it, with no other sign when it goes well).
 */
async function watchRestart(ui, cfg) {
  await ui.page.evaluate(() => {
    const seen = (window.__agentStatus = []);
    const read = () => [...document.querySelectorAll('.part.statusbar .statusbar-item')].map((e) => e.textContent ?? '').find((t) => /^\s*agent\b/.test(t));
    new MutationObserver(() => seen.push(read() ?? '')).observe(document.querySelector('.part.statusbar'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => waitFor('the daemon restarted', () => ui.page.evaluate(() => {
    const seen = window.__agentStatus;
    const down = seen.findIndex((t) => /agent: (stopped|starting|not running)/.test(t));
    return down >= 0 && seen.slice(down).some((t) => /^\s*agent\b/.test(t) && !/agent: (stopped|starting|not running)/.test(t));
  }), cfg.timeoutMs);
}

const chatText = (ui) => ui.chatEval((doc) => doc.getElementById('transcript')?.innerText ?? '');

export const errorSteps = [
  ['chat-from-activity-bar', async (ui, cfg, url) => {
    await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
    await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
    await (await waitFor(`${cfg.file} in the explorer`, () => ui.page.$(`.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`), cfg.timeoutMs)).click();
    const icon = await waitFor('the agent-lsp icon in the activity bar', () => ui.page.$('.activitybar .action-item a[aria-label^="agent-lsp"]'), cfg.timeoutMs);
    await icon.click();
    await ui.chat();
    const empty = await ui.chatEval((doc) => {
      const e = doc.getElementById('empty');
      return e && getComputedStyle(e).display !== 'none' ? e.innerText : '';
    });
    check(/Ask the agent/.test(empty) && /Try:/.test(empty), `the empty state: ${JSON.stringify(empty)}`);
    const plan = await ui.page.$$eval('.pane-header', (hs) => hs.map((h) => h.getAttribute('aria-label') ?? h.textContent ?? '').filter((l) => /\bPlan\b/.test(l)));
    check(plan.length === 0, `the Plan view shows with no plan: ${JSON.stringify(plan)}`);
    await ui.shot('chat-empty-state');
  }],

  ['chat-from-key', async (ui, cfg) => {
    await ui.command('View: Close Primary Side Bar');
    await waitFor('the chat hidden', async () => !(await ui.page.$('.activitybar .action-item.checked a[aria-label^="agent-lsp"]')), cfg.timeoutMs);
    await ui.page.keyboard.down('Control');
    await ui.page.keyboard.down('Alt');
    await ui.page.keyboard.press('KeyA');
    await ui.page.keyboard.up('Alt');
    await ui.page.keyboard.up('Control');
    await waitFor('the chat input focused by Ctrl+Alt+A', () => ui.chatEval((doc) => doc.hasFocus() && doc.activeElement?.id === 'input'), cfg.timeoutMs);
  }],

  ['no-binary', async (ui, cfg) => {
    await ui.chatPrompt(cfg.errorPrompt);
    const t = await oneToast(ui, cfg, /not found/, 'the missing binary message');
    check(t.buttons.includes('How to Install') && t.buttons.includes('Set Path'), `buttons: ${JSON.stringify(t.buttons)}`);
    check(/go install/.test(t.message), `no install hint: ${t.message}`);
    await ui.shot('no-binary');
    await clearToasts(ui);
  }],

  ['no-key', async (ui, cfg) => {
    // A model on another machine: one on this one needs no key (the daemon asks none for a loopback URL).
    setUserSettings(cfg, { 'agentLsp.path': cfg.agentLsp, 'agentLsp.apiKeyEnv': cfg.keyVariable, 'agentLsp.baseUrl': 'https://model.example.invalid/v1' });
    await waitFor('the daemon restarted with the new path', async () => (await toasts(ui)).some((t) => /no API key/.test(t.message)), cfg.timeoutMs);
    await ui.chatPrompt(cfg.errorPrompt);
    const t = await oneToast(ui, cfg, /no API key/, 'the missing key message');
    check(t.buttons.join() === 'Set API Key', `buttons: ${JSON.stringify(t.buttons)}`);
    check(t.message.includes(cfg.keyVariable) && !/Neovim|api_key_env/.test(t.message), `message: ${t.message}`);
    check(t.message.split(/\s+/).length <= 30, `message of ${t.message.split(/\s+/).length} words: ${t.message}`);
    await ui.shot('no-key');
  }],

  ['wrong-key', async (ui, cfg) => {
    const failedBefore = (await chatText(ui)).split('Failed:').length - 1;
    // The user's model is the fake one: its URL is set before the key (a
    // loopback URL: the restart warns of no key again).
    const restarted = await watchRestart(ui, cfg);
    setUserSettings(cfg, { 'agentLsp.baseUrl': cfg.modelURL });
    await restarted();
    const clicked = await ui.page.evaluate(() => {
      const b = [...document.querySelectorAll('.notifications-toasts .notification-toast .monaco-button')].find((x) => x.textContent === 'Set API Key');
      b?.click();
      return Boolean(b);
    });
    check(clicked, 'no Set API Key button');
    const input = await ui.quickInput();
    await input.type(cfg.wrongKey);
    await ui.page.keyboard.press('Enter');
    await waitFor('the prompt sent again and rejected', async () => (await chatText(ui)).split('Failed:').length - 1 > failedBefore, cfg.timeoutMs);
    const t = await oneToast(ui, cfg, /rejected the key/, 'the rejected key message');
    check(t.message.includes(cfg.providerMessage), `the provider's message is not in ${t.message}`);
    check(t.buttons.join() === 'Set API Key', `buttons: ${JSON.stringify(t.buttons)}`);
    const chat = await chatText(ui);
    check(chat.includes(cfg.errorPrompt) && chat.includes('Key set: sending the prompt again.'), `the chat lost the prompt: ${chat}`);
    check(!/[{}]|round \d/.test(chat), `the chat shows JSON or a round: ${chat}`);
    await ui.shot('wrong-key');
  }],

  ['unreachable', async (ui, cfg) => {
    await clearToasts(ui);
    // The model's server is down (a loopback port nothing listens on).
    const restarted = await watchRestart(ui, cfg);
    setUserSettings(cfg, { 'agentLsp.baseUrl': cfg.unreachableURL });
    await restarted();
    await clearToasts(ui);
    await ui.chatPrompt(cfg.errorPrompt);
    // The daemon retries a refused connection with backoff before it gives up.
    await waitFor('the unreachable server message', async () => (await toasts(ui)).some((t) => /cannot reach/.test(t.message)), cfg.timeoutMs * 3);
    const t = await oneToast(ui, cfg, /cannot reach/, 'the unreachable server message');
    check(t.message.includes(cfg.unreachableURL) && /connection refused/.test(t.message), `message: ${t.message}`);
    check(t.buttons.join() === 'Open Settings', `buttons: ${JSON.stringify(t.buttons)}`);
    await ui.shot('unreachable');
  }],
];
