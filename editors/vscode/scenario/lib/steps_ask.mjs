// Inline questions answered inline, and a rewind the live chat shows
// (issue 25, items 4 and 10): with the chat never opened, Alt+I on a line
// of review.go asks a question whose answer streams into a zone under
// that line (a comment thread), rendered, and visible without opening
// the chat. Then the chat shows the same prompt; a rewind that truncates
// the conversation removes it from the open chat at once. The Go test
// (e2e/scenario_ask_test.go) checks what the fake model was sent.

import { waitFor } from './ui.mjs';
import { codeSteps } from './steps_code.mjs';

function check(cond, message) {
  if (!cond) throw new Error(message);
}

async function chord(page, modifier, key) {
  await page.keyboard.down(modifier);
  await page.keyboard.press(key);
  await page.keyboard.up(modifier);
}

/** answerZone is the inline answer's zone in the visible editor: its label, text, rendered elements and box. */
const answerZone = (ui) => ui.page.evaluate(() => {
  const zone = [...document.querySelectorAll('.editor-instance .review-widget')].find((z) => z.offsetParent !== null);
  if (!zone) return undefined;
  const r = zone.getBoundingClientRect();
  return {
    label: zone.querySelector('.review-title')?.textContent ?? '',
    text: zone.querySelector('.comment-body')?.innerText ?? '',
    strong: zone.querySelector('.comment-body strong')?.textContent ?? '',
    code: zone.querySelector('.comment-body code')?.textContent ?? '',
    top: r.top, bottom: r.bottom, height: r.height, innerHeight: window.innerHeight,
  };
});

/** chatVisible: the chat's webview is on screen (a frame with a box). */
const chatVisible = (ui) => ui.page.evaluate(() =>
  [...document.querySelectorAll('.webview, iframe.webview')].some((f) => f.getBoundingClientRect().width > 0 && f.offsetParent !== null));

export const askSteps = [
  ['open', async (ui, cfg, url) => {
    await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
    await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
    const row = `.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`;
    await (await waitFor(`${cfg.file} in the explorer`, () => ui.page.$(row), cfg.timeoutMs)).click();
    await waitFor(`${cfg.file} in an editor`, async () => (await ui.editorText()).includes('var y = oldName'), cfg.timeoutMs);
    await ui.command('View: Close Primary Side Bar');
    await waitFor('the side bar closed', async () => !(await ui.page.$('.part.sidebar:not([style*="display: none"]) .composite.title')), cfg.timeoutMs).catch(() => undefined);
  }],

  ['alt-i-answered-inline', async (ui, cfg) => {
    const { page } = ui;
    await (await page.$('.editor-instance .monaco-editor .view-lines')).click();
    await ui.command('Go to Line/Column...');
    await page.keyboard.type(String(cfg.askLine));
    await page.keyboard.press('Enter');
    await waitFor(`the cursor on line ${cfg.askLine}`, () => page.evaluate((l) =>
      [...document.querySelectorAll('.statusbar-item')].some((s) => new RegExp(`Ln ${l}, Col`).test(s.textContent ?? '')), cfg.askLine), cfg.timeoutMs);
    check(!(await chatVisible(ui)), 'the chat is open before Alt+I');
    // Go to Line's own input may still be on screen: type only into Alt+I's.
    await waitFor('Go to Line to close', async () => !(await ui.quickInputVisible()), cfg.timeoutMs);
    await chord(page, 'Alt', 'KeyI');
    await waitFor('the inline edit input box', async () => {
      const qp = await ui.quickPick();
      return qp && /Inline edit of review\.go:\d+-\d+/.test(qp.text);
    }, cfg.timeoutMs);
    const input = await ui.quickInput();
    await input.type(cfg.askQuestion);
    const typed = await input.evaluate((e) => e.value);
    check(typed === cfg.askQuestion, `the question typed into the box is ${JSON.stringify(typed)}`);
    await page.keyboard.press('Enter');
    let zone;
    await waitFor('the answer in a zone under the line', async () => {
      zone = await answerZone(ui);
      return zone?.text.includes(cfg.askAnswerEnd) && zone.label.includes('answered');
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; the zone shows ${JSON.stringify(zone)}`);
    });
    ui.log(`inline answer: ${JSON.stringify(zone)}`);
    check(zone.label.includes(`${cfg.file}:${cfg.askLine}-${cfg.askLine}`), `the zone's label ${JSON.stringify(zone.label)}`);
    check(zone.strong === cfg.askStrong && zone.code === cfg.askCode, `the answer is not rendered: ${JSON.stringify(zone)}`);
    check(zone.top >= 0 && zone.bottom <= zone.innerHeight && zone.height > 20, `the zone is out of view: ${JSON.stringify(zone)}`);
    check(!(await chatVisible(ui)), 'Alt+I opened the chat');
    await ui.shot('inline-answer');
  }],

  ['rewind-clears-live-chat', async (ui, cfg) => {
    await ui.command('agent-lsp: Show Chat');
    await waitFor('the inline prompt in the chat', async () =>
      (await ui.chatEntries()).some((e) => e.cls === 'prompt' && e.text.includes(cfg.askQuestion)), cfg.timeoutMs);
    await ui.command('agent-lsp: Rewind…');
    await waitFor('the one checkpoint', async () => (await ui.quickPick())?.rows.length === 1, cfg.timeoutMs);
    // Enter only once the pick has the focus: under load the palette's
    // closing input may still hold it, and the keys would reach the editor.
    await waitFor('the pick focused', () => ui.page.evaluate(() =>
      !!document.activeElement?.closest('.quick-input-widget')), cfg.timeoutMs);
    await ui.page.keyboard.press('Enter');
    await waitFor('what to rewind, both picked', async () => {
      const qp = await ui.quickPick();
      return qp?.title.includes('rewind to before') && qp.rows.length === 2 && qp.rows.every((r) => r.checked);
    }, cfg.timeoutMs);
    await ui.quickPickOk();
    let entries = [];
    await waitFor('the rewind notice, and the rewound prompt gone from the open chat', async () => {
      entries = await ui.chatEntries();
      return entries.some((e) => e.cls === 'notice' && e.text.startsWith('Rewound to before')) &&
        !entries.some((e) => e.cls === 'prompt' || e.text.includes(cfg.askAnswerEnd));
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; the chat shows ${JSON.stringify(entries.map((e) => `${e.cls}: ${e.text.slice(0, 80)}`))}`);
    });
    check(!(await ui.editorText()).includes(cfg.askQuestion.slice(0, 6)), 'keys meant for the pick reached review.go');
    await ui.shot('rewound-live-chat');
  }],
  ...codeSteps,
];
