// The scenario's steps, in order: what a user does and what they must then
// see. Each step throws when VS Code does not show what it should; the
// texts and prompts come from the Go test's config (the fake model's
// script is written there).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './ui.mjs';
import { inlineStep } from './steps_inline.mjs';
import { renderSteps } from './steps_render.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** lastText is the text of the chat's last model-text entry. */
function lastText(entries) {
  return [...entries].reverse().find((e) => e.cls === 'text')?.text ?? '';
}

function toolCards(entries) {
  return entries.filter((e) => e.cls.startsWith('tool '));
}

function disk(cfg) {
  return readFileSync(join(cfg.workspace, cfg.file), 'utf8');
}

async function waitDisk(cfg, want, what) {
  await waitFor(what, () => disk(cfg) === want, cfg.timeoutMs).catch((err) => {
    throw new Error(`${err.message}; ${cfg.file} holds ${JSON.stringify(disk(cfg))}`);
  });
}

/** waitChat waits until the chat's entries satisfy ok, and returns them. */
async function waitChat(ui, cfg, what, ok) {
  let last = [];
  try {
    return await waitFor(what, async () => {
      last = await ui.chatEntries();
      return ok(last) ? last : undefined;
    }, cfg.timeoutMs);
  } catch (err) {
    throw new Error(`${err.message}; the chat shows ${JSON.stringify(last.map((e) => `${e.cls}: ${e.text.slice(0, 80)}`))}`);
  }
}

async function workbench(ui, cfg) {
  await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
  await waitFor(`${cfg.file} in the explorer`, () => ui.page.$(`.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`), cfg.timeoutMs);
}

async function withKey(page, modifier, key) {
  await page.keyboard.down(modifier);
  await page.keyboard.press(key);
  await page.keyboard.up(modifier);
}

async function reviewLenses(ui, cfg, count) {
  let last = [];
  return waitFor(`${count} hunk lenses on the diff (diffEditor.codeLens from the extension's defaults)`, async () => {
    last = await ui.lenses();
    return last.length === count ? last : undefined;
  }, cfg.timeoutMs).catch((err) => {
    throw new Error(`${err.message}; lenses seen: ${JSON.stringify(last)}`);
  });
}

async function waitLens(ui, cfg, title, checked) {
  await waitFor(`lens "${title}" ${checked ? 'checked' : 'unchecked'}`, async () =>
    (await ui.lenses()).some((l) => l.title === title && l.checked === checked), cfg.timeoutMs);
}

/**
 * showChat opens the chat view and waits for its webview; when its frame
 * does not answer, the command is run again (as a user clicks again).
 */
async function showChat(ui) {
  for (let attempt = 1; ; attempt++) {
    await ui.command('agent-lsp: Show Chat');
    try {
      return await ui.chat(attempt < 3 ? 8000 : 20_000);
    } catch (err) {
      if (attempt >= 3) throw err;
      ui.log(`the chat webview did not answer (${err.message}); showing it again\n${await ui.frameReport()}`);
    }
  }
}

export const steps = [
  ['open-file', async (ui, cfg, url) => {
    await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
    await workbench(ui, cfg);
    await (await ui.page.$(`.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`)).click();
    await waitFor(`${cfg.file} in an editor`, async () => (await ui.editorText()).includes('func oldName'), cfg.timeoutMs);
    await ui.shot('file');
  }],

  ['inline-edit-key', async (ui, cfg) => {
    // Alt+I with no selection: the inline edit of the cursor's line, not VS Code's chat.
    // The extension's keybindings register with its commands, once the
    // extension host has read the extensions (seconds after the workbench
    // shows; a key pressed before goes to VS Code alone): wait for the
    // command in the palette first, as a user who looks it up.
    await ui.paletteFind('agent-lsp: Inline Edit');
    await ui.page.keyboard.press('Escape');
    await waitFor('the palette to close', async () => !(await ui.quickInputVisible()), cfg.timeoutMs);
    await (await ui.page.$('.editor-instance .monaco-editor .view-lines')).click();
    await withKey(ui.page, 'Alt', 'KeyI');
    const box = await waitFor('the inline edit input box', async () => {
      const qp = await ui.quickPick();
      return qp && /Inline edit of review\.go:\d+-\d+/.test(qp.text) ? qp : undefined;
    }, cfg.timeoutMs);
    ui.log(`inline edit box: ${box.text}`);
    await ui.shot('inline-edit');
    await ui.page.keyboard.press('Escape');
    await waitFor('the input box to close', async () => !(await ui.quickInputVisible()), cfg.timeoutMs);
  }],

  ['open-chat', async (ui, cfg) => {
    await showChat(ui);
    const entries = await ui.chatEntries();
    check(entries.length === 0, `a new chat shows ${JSON.stringify(entries)}`);
  }],

  ['prompt-stream-command', async (ui, cfg) => {
    await ui.chatPrompt(cfg.countPrompt);
    // The approval comes as agent/approve (the extension declares
    // agentApprove): the dialog is built from its fields, the title from
    // tool, risk and summary, the detail exactly the command, the buttons
    // the offered options. The popup would show its whole text as the
    // message, with no detail.
    const d = await ui.dialog();
    check(d.message.startsWith(`Run command? ${cfg.countRisk} risk`), `the approval's title ${JSON.stringify(d)}`);
    check(d.detail === `$ ${cfg.countCommand}`, `the approval's detail ${JSON.stringify(d)}`);
    check(['Allow', 'Allow for this session', 'Deny'].every((b) => d.buttons.includes(b)), `the approval offers ${d.buttons}`);
    await ui.shot('approval');
    await ui.clickDialogButton('Allow');
    // The answer stalls midway (the fake's script): it is seen in part first.
    const partial = await waitChat(ui, cfg, 'the answer streaming', (es) => {
      const t = lastText(es);
      return t.length > 0 && t !== cfg.countAnswer && cfg.countAnswer.startsWith(t);
    });
    ui.log(`streaming: ${JSON.stringify(lastText(partial))}`);
    await ui.shot('streaming');
    const done = await waitChat(ui, cfg, 'the whole answer', (es) => lastText(es) === cfg.countAnswer);
    const cards = toolCards(done);
    check(cards.length === 1 && cards[0].cls.includes('completed') && cards[0].text.includes(cfg.countCommand), `tool cards ${JSON.stringify(cards)}`);
    await waitFor('the prompt to end', async () => (await ui.chatStatus()) === '', cfg.timeoutMs);
    await ui.shot('answer');
  }],

  ['review-hunks', async (ui, cfg) => {
    await ui.chatPrompt(cfg.renamePrompt);
    const lenses = await reviewLenses(ui, cfg, 6);
    check(lenses.filter((l) => l.title.startsWith('Accept')).every((l) => l.checked), `lenses ${JSON.stringify(lenses)}`);
    const pick = await waitFor('the review quick pick', () => ui.quickPick(), cfg.timeoutMs);
    check(pick.placeholder.startsWith('Enter: keep the checked hunks'), `placeholder ${JSON.stringify(pick.placeholder)}`);
    await ui.shot('review');
    await ui.clickLens('Reject hunk 2');
    await waitLens(ui, cfg, 'Reject hunk 2', true);
    await ui.clickLens('Reject hunk 3');
    await waitLens(ui, cfg, 'Reject hunk 3', true);
    await ui.clickLens('Accept hunk 3');
    await waitLens(ui, cfg, 'Accept hunk 3', true);
    await waitLens(ui, cfg, 'Accept hunk 1', true);
    const rows = await waitFor('the pick to follow the lenses', async () => {
      const qp = await ui.quickPick();
      const checked = qp?.rows.filter((r) => r.checked).length;
      return checked === 2 ? qp.rows : undefined;
    }, cfg.timeoutMs);
    ui.log(`pick rows: ${JSON.stringify(rows)}`);
    await ui.shot('review-decided');
    await ui.quickPickOk(); // the lenses took the focus: the pick's own button confirms
    await waitFor('the feedback box', async () => (await ui.quickPick())?.title.includes('Accepting hunks 1, 3 of 3'), cfg.timeoutMs);
    await ui.page.keyboard.type(cfg.renameNote);
    await ui.page.keyboard.press('Enter');
    await waitChat(ui, cfg, 'the answer after the review', (es) => lastText(es) === cfg.renameAnswer);
    await waitDisk(cfg, cfg.reviewKept, 'hunks 1 and 3 on disk');
    await waitFor('the edited file in the editor', async () => (await ui.editorText()).includes('func newName'), cfg.timeoutMs);
    // The two kept hunks carry one revert lens for the file, not one each.
    let seen;
    await waitFor('one revert lens for the two kept hunks', async () => {
      seen = await ui.revertLenses();
      return seen.length === 1 && seen[0] === 'Revert 2 agent changes in this file';
    }, cfg.timeoutMs).catch((err) => { throw new Error(`${err.message}; revert lenses: ${JSON.stringify(seen)}`); });
    await ui.shot('reviewed');
  }],

  ['deny-edit', async (ui, cfg) => {
    await ui.chatPrompt(cfg.commentPrompt);
    await reviewLenses(ui, cfg, 2);
    await waitFor('the review quick pick', () => ui.quickPick(), cfg.timeoutMs);
    await ui.shot('deny');
    // Escape only hides the pick, which covers the diff's top (steps_dialog.mjs checks the edit waits); the lens rejects.
    await ui.page.keyboard.press('Escape');
    await waitFor('the pick to hide', async () => !(await ui.quickInputVisible()), cfg.timeoutMs);
    await ui.clickLens('Reject the whole edit');
    await waitFor('the feedback box', async () => (await ui.quickPick())?.title.includes('Rejecting the whole edit'), cfg.timeoutMs);
    await ui.page.keyboard.press('Enter');
    const es = await waitChat(ui, cfg, 'the answer after the denial', (e) => lastText(e) === cfg.commentAnswer);
    const cards = toolCards(es);
    check(cards.at(-1)?.cls.includes('denied'), `the last tool card ${JSON.stringify(cards.at(-1))}`);
    check(disk(cfg) === cfg.reviewKept, 'the denied edit reached the disk');
  }],

  ['rewind', async (ui, cfg) => {
    await ui.command('agent-lsp: Rewind…');
    await waitFor('the checkpoints', async () => (await ui.quickPick())?.rows.length === 3, cfg.timeoutMs);
    await ui.page.keyboard.type(cfg.renamePrompt.slice(0, 15));
    await waitFor('the rename checkpoint alone', async () => {
      const qp = await ui.quickPick();
      return qp?.rows.length === 1 && qp.rows[0].label.includes(cfg.renamePrompt.slice(0, 15));
    }, cfg.timeoutMs);
    await ui.shot('rewind');
    await ui.page.keyboard.press('Enter');
    await waitFor('what to rewind', async () => (await ui.quickPick())?.title.includes('rewind to before'), cfg.timeoutMs);
    await sleep(200); // the second pick's checked rows settle before Enter accepts them
    await ui.page.keyboard.press('Enter');
    await waitChat(ui, cfg, 'the rewind notice', (es) => es.at(-1)?.cls === 'notice' && es.at(-1).text.startsWith('Rewound to before'));
    await waitDisk(cfg, cfg.reviewOriginal, `${cfg.file} as it was before the rename`);
    await ui.shot('rewound');
  }],

  ['reload-restores', async (ui, cfg) => {
    await ui.page.reload();
    // The side bar comes back on the view it last showed: the chat's container, not the explorer.
    await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
    await showChat(ui);
    const es = await waitChat(ui, cfg, 'the conversation redrawn after the reload', (e) =>
      e.some((x) => x.cls === 'prompt' && x.text.includes(cfg.countPrompt)) && lastText(e) === cfg.countAnswer);
    check(!es.some((x) => x.text.includes(cfg.renamePrompt)), 'the rewound prompt is back in the chat');
    const cards = toolCards(es);
    check(cards.length === 1 && cards[0].cls.includes('completed'), `restored tool cards ${JSON.stringify(cards)}`);
    await ui.shot('restored');
  }],

  ['continue', async (ui, cfg) => {
    // Under load code-server sometimes blanks a restored webview a moment
    // after drawing it (the chat's frame is there, its document empty);
    // Show Chat brings it back, as it does for a user. Its focus lands in
    // the input a moment later: typing before that loses keys.
    try {
      await ui.chat(5000);
    } catch (err) {
      ui.log(`the chat went blank after the reload (${err.message}); showing it again`);
      await showChat(ui);
      await waitFor('the focus Show Chat gives the chat input', () =>
        ui.chatEval((doc) => doc.hasFocus() && doc.activeElement?.id === 'input'), cfg.timeoutMs);
    }
    await ui.chatPrompt(cfg.afterPrompt);
    await waitChat(ui, cfg, 'the answer after the reload', (es) => lastText(es) === cfg.afterAnswer);
    await ui.shot('continued');
  }],

  ['session-pick', async (ui, cfg) => {
    await ui.command('agent-lsp: New Session');
    await waitChat(ui, cfg, 'an empty chat for the new session', (es) => es.length === 0);
    await ui.command('agent-lsp: Sessions');
    const title = cfg.countPrompt.slice(0, 8);
    await waitFor('the session list', async () => (await ui.quickPick())?.rows.length >= 2, cfg.timeoutMs);
    await ui.page.keyboard.type(title);
    await waitFor(`the session "${title}…" alone`, async () => {
      const qp = await ui.quickPick();
      return qp?.rows.length === 1 && qp.rows[0].label.includes(title);
    }, cfg.timeoutMs);
    await ui.page.keyboard.press('Enter');
    const es = await waitChat(ui, cfg, 'the picked session redrawn', (e) =>
      e.some((x) => x.cls === 'prompt' && x.text.includes(cfg.countPrompt)) && lastText(e) === cfg.afterAnswer);
    check(es.some((x) => x.cls === 'notice' && x.text.includes('restored')), 'no line says the session was restored');
    await ui.shot('session-picked');
  }],
  inlineStep,
  ...renderSteps,
];
