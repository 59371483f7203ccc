// Safe defaults and a review that shows what it asks about (issue 25,
// items 5 and 3): a HIGH command's dialog has Deny focused, one Deny and
// the command once, and Enter denies; then an edit's review whose pick
// Escape hides while the edit waits, every hunk's diff and lenses in view,
// resumed from the status bar and accepted. The Go test
// (e2e/scenario_dialog_test.go) checks what the fake model was sent and
// the file on disk.

import { waitFor } from './ui.mjs';

function check(cond, message) {
  if (!cond) throw new Error(message);
}

const lastText = (entries) => [...entries].reverse().find((e) => e.cls === 'text')?.text ?? '';

async function waitAnswer(ui, cfg, answer) {
  let last = [];
  return waitFor(`the answer ${JSON.stringify(answer)}`, async () => {
    last = await ui.chatEntries();
    return lastText(last) === answer ? last : undefined;
  }, cfg.timeoutMs).catch((err) => {
    throw new Error(`${err.message}; the chat shows ${JSON.stringify(last.map((e) => `${e.cls}: ${e.text.slice(0, 100)}`))}`);
  });
}

/** focusedDialogButton is the text of the dialog button that has the keyboard focus ('' if none). */
const focusedDialogButton = (ui) => ui.page.evaluate(() => {
  const el = document.activeElement;
  return el?.closest('.monaco-dialog-box .dialog-buttons') && el.classList.contains('monaco-button') ? el.textContent ?? '' : '';
});

/**
 * hiddenLenses are the diff's lenses that a user cannot see or click: out
 * of the window, or under something else (the quick pick) at their centre.
 */
const hiddenLenses = (ui) => ui.page.evaluate(() => [...document.querySelectorAll('.monaco-diff-editor .codelens-decoration a')]
  .filter((a) => {
    const r = a.getBoundingClientRect();
    if (r.width === 0 || r.top < 0 || r.bottom > window.innerHeight) return true;
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !at || !(a === at || a.contains(at));
  })
  .map((a) => (a.textContent ?? '').trim()));

/** diffLines are the lines the diff editor draws, both sides (inline or side by side). */
const diffLines = (ui) => ui.page.evaluate(() =>
  [...document.querySelectorAll('.monaco-diff-editor .view-lines')].map((e) => e.innerText.replace(/\u00a0/g, ' ')).join('\n'));

/** statusItems are the texts of the status bar's items. */
const statusItems = (ui) => ui.page.$$eval('.part.statusbar .statusbar-item', (els) => els.map((e) => (e.textContent ?? '').trim()));

export const dialogSteps = [
  ['open', async (ui, cfg, url) => {
    await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
    await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
    const row = `.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`;
    await (await waitFor(`${cfg.file} in the explorer`, () => ui.page.$(row), cfg.timeoutMs)).click();
    await ui.command('agent-lsp: Show Chat');
    await ui.chat();
  }],

  ['high-enter-denies', async (ui, cfg) => {
    await ui.chatPrompt(cfg.highPrompt);
    const d = await ui.dialog();
    ui.log(`HIGH dialog: ${JSON.stringify(d)}`);
    check(d.message.startsWith('Run command? HIGH risk: '), `the title ${JSON.stringify(d.message)}`);
    check(!d.message.includes('run_bash'), `the title names the tool: ${JSON.stringify(d.message)}`);
    check(d.detail === `$ ${cfg.highCommand}`, `the detail ${JSON.stringify(d.detail)}`);
    const shown = `${d.message}\n${d.detail}`.split(cfg.highCommand).length - 1;
    check(shown === 1, `the command is shown ${shown} times`);
    check(d.buttons.filter((b) => b === 'Deny').length === 1, `buttons ${JSON.stringify(d.buttons)}`);
    check(d.buttons.includes('Allow'), `buttons ${JSON.stringify(d.buttons)}`);
    check(!d.buttons.includes('Cancel'), `VS Code's own Cancel is there too: ${JSON.stringify(d.buttons)}`);
    // The close affordance (Escape) in its place: VS Code lays the buttons out by platform.
    check(d.buttons.length === 3 && d.buttons.includes('Deny and stop the agent'), `the close affordance: ${JSON.stringify(d.buttons)}`);
    const focused = await waitFor('a focused dialog button', async () => (await focusedDialogButton(ui)) || undefined, cfg.timeoutMs);
    check(focused === 'Deny', `the focused button is ${JSON.stringify(focused)}`);
    await ui.shot('high-dialog');
    await ui.page.keyboard.press('Enter');
    await waitFor('the dialog to close', async () => !(await ui.page.$('.monaco-dialog-box')), cfg.timeoutMs);
    const es = await waitAnswer(ui, cfg, cfg.highAnswer);
    const card = es.filter((e) => e.cls.startsWith('tool ')).at(-1);
    check(card?.cls.includes('denied'), `the tool card ${JSON.stringify(card)}`);
    await waitFor('the prompt to end', async () => (await ui.chatStatus()) === '', cfg.timeoutMs);
    await ui.shot('high-denied');
  }],

  ['review-escape-waits', async (ui, cfg) => {
    await ui.chatPrompt(cfg.editPrompt);
    const pick = await waitFor('the review quick pick', async () => {
      const qp = await ui.quickPick();
      return qp?.title.includes('review') ? qp : undefined;
    }, cfg.timeoutMs);
    check(!/reject/i.test(pick.placeholder), `the pick says Escape rejects: ${JSON.stringify(pick.placeholder)}`);
    await waitFor(`${cfg.hunks} hunks' lenses`, async () => (await ui.lenses()).length === 2 * cfg.hunks, cfg.timeoutMs);
    await ui.shot('review-pick');
    await ui.page.keyboard.press('Escape');
    await waitFor('the pick to hide', async () => !(await ui.quickInputVisible()), cfg.timeoutMs);
    // The edit waits: the diff and its lenses stay, the status bar says so, the prompt runs on.
    const waiting = await waitFor('the waiting review in the status bar', async () =>
      (await statusItems(ui)).find((t) => t.includes(`Review ${cfg.file}: waiting`)), cfg.timeoutMs);
    ui.log(`status bar: ${waiting}`);
    check(await ui.chatStatus() !== '', 'the prompt ended: Escape answered the review');
    const lenses = await ui.lenses();
    check(lenses.length === 2 * cfg.hunks, `lenses after Escape ${JSON.stringify(lenses)}`);
    const hidden = await hiddenLenses(ui);
    check(hidden.length === 0, `lenses out of view or covered: ${JSON.stringify(hidden)}`);
    const text = await diffLines(ui);
    for (const line of cfg.hunkLines) check(text.includes(line), `the diff does not show ${JSON.stringify(line)}: ${JSON.stringify(text)}`);
    await ui.shot('review-waiting');
  }],

  ['review-resume', async (ui, cfg) => {
    const item = await waitFor('the status bar item', async () => {
      for (const el of await ui.page.$$('.part.statusbar .statusbar-item')) {
        if ((await el.evaluate((e) => e.textContent ?? '')).includes(`Review ${cfg.file}: waiting`)) return el;
      }
      return undefined;
    }, cfg.timeoutMs);
    await (await item.$('a, .statusbar-item-label') ?? item).click();
    await waitFor('the review pick again, every hunk checked', async () => {
      const qp = await ui.quickPick();
      return qp?.title.includes('review') && qp.rows.length === cfg.hunks && qp.rows.every((r) => r.checked);
    }, cfg.timeoutMs);
    await ui.page.keyboard.press('Enter');
    await waitFor('the feedback box', async () => (await ui.quickPick())?.title.includes(`Accepting all ${cfg.hunks} hunks`), cfg.timeoutMs);
    await ui.page.keyboard.press('Enter');
    await waitAnswer(ui, cfg, cfg.editAnswer);
    await ui.shot('review-accepted');
  }],
];
