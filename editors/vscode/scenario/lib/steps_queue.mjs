// Queue, steer and a subagent in the chat (issue 28): a prompt whose task
// call runs a subagent (its tool call and answer nested under the task
// card, with its usage line), then a command that waits for a file the
// scenario makes. While it waits, the input stays usable: Enter queues a
// message (a dimmed "Queued" bubble above the input), Ctrl+Enter steers
// (a "Steer" bubble); the queued one is edited with its ✎ button. Then the
// command is let go: the steer shows where it reached the turn, the edited
// prompt runs after it. Last, "Open transcript" on the task card opens the
// child's conversation. The Go test (e2e/scenario_queue_test.go) checks
// what the fake model was sent.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './ui.mjs';

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** waiting is what the chat shows above its input: each bubble's class, label and text. */
const waiting = (ui) => ui.chatEval((doc) => [...doc.querySelectorAll('#queue .queued')]
  .map((q) => ({ cls: q.className, id: q.dataset.queueId, label: q.querySelector('.who')?.textContent ?? '', text: q.querySelector('.body')?.textContent ?? '' })));

/** taskCard is the task call's card: its status, description, the child's lines and usage. */
const taskCard = (ui) => ui.chatEval((doc) => {
  const card = doc.querySelector('#transcript .entry.task');
  if (!card) return undefined;
  return {
    status: card.querySelector('.tool-status')?.textContent ?? '',
    detail: card.querySelector('.tool-detail')?.textContent ?? '',
    open: card.querySelector('details.child')?.open ?? false,
    child: [...card.querySelectorAll('.child-entries > div')].map((e) => e.innerText),
    usage: card.querySelector('.child-usage')?.innerText ?? '',
  };
});

async function waitFn(what, cfg, fn) {
  let last;
  try {
    return await waitFor(what, async () => {
      last = await fn();
      return last;
    }, cfg.timeoutMs);
  } catch (err) {
    throw new Error(`${err.message}; last seen ${JSON.stringify(last)}`);
  }
}

/** typeInChat types text into the chat's input (focused as a user clicks it), without sending. */
async function typeInChat(ui, text) {
  for (const ch of text) {
    await ui.focusChatInput();
    await ui.page.keyboard.type(ch);
  }
  const typed = await ui.chatEval((doc) => doc.querySelector('#input')?.value ?? '');
  check(typed === text, `the chat input holds ${JSON.stringify(typed)}, typed ${JSON.stringify(text)}`);
}

export const queueSteps = [
  ['open', async (ui, cfg, url) => {
    await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
    await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
    await waitFor(`${cfg.file} in the explorer`, () => ui.page.$(`.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`), cfg.timeoutMs);
    await ui.paletteFind('agent-lsp: Show Chat');
    await ui.page.keyboard.press('Enter');
    await ui.chat();
  }],

  ['subagent-nested', async (ui, cfg) => {
    await ui.chatPrompt(cfg.prompt);
    // The command waits for its approval; the task card above shows the child's work.
    const d = await ui.dialog();
    check(d.buttons.includes('Allow'), `the approval offers ${d.buttons}`);
    const card = await waitFn('the task card with its child', cfg, async () => {
      const c = await taskCard(ui);
      return c && c.status === 'done' && c.child.some((l) => l.includes(cfg.childAnswer)) ? c : undefined;
    });
    check(card.detail === cfg.taskDescription, `the task card says ${JSON.stringify(card.detail)}`);
    check(card.open, 'the child block is closed');
    check(card.child.some((l) => l.startsWith('grep') && l.includes(cfg.childPattern) && l.includes('done')), `the child's lines: ${JSON.stringify(card.child)}`);
    check(card.usage.startsWith('2 model calls · 2.6k in (2.18k cached) · 70 out') && card.usage.includes('Open transcript'), `the child's usage line: ${card.usage}`);
    await ui.shot('subagent-and-approval');
    await ui.clickDialogButton('Allow');
  }],

  ['queue-and-steer', async (ui, cfg) => {
    // The command runs (it waits for the release file): the input is usable.
    await waitFn('the Queue and Steer buttons', cfg, () => ui.chatEval((doc) =>
      doc.querySelector('#send')?.textContent === 'Queue' && !doc.querySelector('#steer')?.hidden));
    await typeInChat(ui, cfg.queued);
    await ui.page.keyboard.press('Enter');
    await waitFn('the queued bubble', cfg, async () => (await waiting(ui)).some((q) => q.text === cfg.queued && q.label === 'Queued'));
    await typeInChat(ui, cfg.steer);
    await ui.page.keyboard.down('Control');
    await ui.page.keyboard.press('Enter');
    await ui.page.keyboard.up('Control');
    const both = await waitFn('the steer bubble', cfg, async () => {
      const w = await waiting(ui);
      return w.length === 2 && w.some((q) => q.text === cfg.steer && q.cls.includes('steer')) ? w : undefined;
    });
    // The status bar follows the same queue update as the bubbles, drawn by
    // VS Code on its own schedule: waited for, not read once.
    await waitFn('the status bar to count the queue (· 2 queued)', cfg, async () => {
      const bar = await ui.page.evaluate(() => [...document.querySelectorAll('.statusbar-item')].map((s) => s.textContent ?? '').join(' | '));
      return bar.includes('2 queued') ? bar : undefined;
    });
    await ui.shot('queued-and-steer');

    // Edit the queued message with its ✎ button: an input box with its text.
    check(both.filter((q) => q.cls.split(' ').includes('queue')).length === 1, `one queued bubble: ${JSON.stringify(both)}`);
    await ui.chatEval((doc) => {
      doc.querySelector('#queue .queued.queue [data-queue-action="edit"]').click();
      return true;
    });
    const input = await ui.quickInput();
    const value = await input.evaluate((e) => e.value);
    check(value === cfg.queued, `the edit box holds ${JSON.stringify(value)}`);
    await input.evaluate((e) => e.select());
    await ui.page.keyboard.type(cfg.edited);
    await ui.page.keyboard.press('Enter');
    await waitFn('the edited bubble', cfg, async () => (await waiting(ui)).some((q) => q.text === cfg.edited));
    await ui.shot('queued-edited');
  }],

  ['steered-and-queued-ran', async (ui, cfg) => {
    writeFileSync(join(cfg.workspace, cfg.releaseFile), 'go\n');
    const entries = await waitFn('the steer and the queued prompt run', cfg, async () => {
      const es = await ui.chatEntries();
      return es.some((e) => e.text.includes(cfg.queuedAnswer)) && (await ui.chatStatus()) === '' ? es : undefined;
    });
    const at = (pred) => entries.findIndex(pred);
    const bash = at((e) => e.cls.startsWith('tool') && e.text.includes('run_bash'));
    const steer = at((e) => e.cls === 'steer' && e.text.includes(cfg.steer));
    const steered = at((e) => e.cls === 'text' && e.text.includes(cfg.steeredAnswer));
    const queued = at((e) => e.cls === 'prompt' && e.text.includes(cfg.edited));
    const ran = at((e) => e.cls === 'text' && e.text.includes(cfg.queuedAnswer));
    check(bash >= 0 && bash < steer && steer < steered && steered < queued && queued < ran,
      `out of order (bash ${bash}, steer ${steer}, answer ${steered}, queued ${queued}, its answer ${ran}): ${JSON.stringify(entries.map((e) => `${e.cls}: ${e.text.slice(0, 60)}`))}`);
    check((await waiting(ui)).length === 0, 'messages still wait above the input');
    check(await ui.chatEval((doc) => doc.querySelector('#send')?.textContent === 'Send' && doc.querySelector('#steer')?.hidden), 'the input still says Queue');
    await ui.shot('steered-and-queued-ran');
  }],

  ['child-transcript', async (ui, cfg) => {
    await ui.chatEval((doc) => {
      doc.querySelector('#transcript .entry.task [data-child-transcript]').click();
      return true;
    });
    const text = await waitFn("the child's transcript", cfg, async () => {
      const t = await ui.editorText();
      return t.includes('# Subagent: ') ? t : undefined;
    });
    for (const want of [`# Subagent: ${cfg.taskDescription}`, cfg.taskPrompt, cfg.childAnswer, '**grep**']) {
      check(text.includes(want), `the child's transcript lacks ${JSON.stringify(want)}:\n${text}`);
    }
    check(!text.includes(cfg.prompt), "the child's transcript holds the parent's prompt");
    await ui.shot('child-transcript');
  }],
];
