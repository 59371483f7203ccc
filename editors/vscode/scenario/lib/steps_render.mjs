// Rendered answers and a chat that follows (issue 25, items 1 and 2): an
// answer in markdown renders as elements (a heading, a table, a list, a
// quote, a highlighted Go block with its language and buttons); its
// review.go:3 link opens the file at line 3 and Insert puts the code at
// the cursor. Then a long answer streams on while the view is hidden, and
// is in view when the view is shown again at another size; and after the
// user scrolled up, sending brings the new answer into view.

import { waitFor } from './ui.mjs';

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** lastAnswer is the last model-text entry's text. */
const lastAnswer = (ui) => ui.chatEval((doc) => [...doc.querySelectorAll('#transcript .entry.text')].at(-1)?.innerText ?? '');

/** gap is how far the transcript's end is below its visible bottom, in px (0: the end is in view). */
const gap = (ui) => ui.chatEval((doc) => {
  const t = doc.getElementById('transcript');
  return Math.max(0, t.scrollHeight - t.scrollTop - t.clientHeight);
});

async function waitInView(ui, cfg, what) {
  let last;
  await waitFor(what, async () => {
    last = await gap(ui);
    return last < 40;
  }, cfg.timeoutMs).catch((err) => {
    throw new Error(`${err.message}; the transcript's end is ${last} px below the view`);
  });
}

/** showChat shows the chat and waits for the focus it gives the input (keys typed before it are lost). */
async function showChat(ui, cfg) {
  await ui.command('agent-lsp: Show Chat');
  await ui.chat();
  await waitFor('the focus Show Chat gives the chat input', () =>
    ui.chatEval((doc) => doc.hasFocus() && doc.activeElement?.id === 'input'), cfg.timeoutMs);
}

export const renderSteps = [
  ['rendered-answer', async (ui, cfg) => {
    await showChat(ui, cfg);
    await ui.chatPrompt(cfg.renderPrompt);
    // The whole answer: its round's usage line comes after it (a code
    // block seen while it still streams holds only its first lines).
    await waitFor('the rendered answer, whole', () => ui.chatEval((doc) => {
      const entries = [...doc.querySelectorAll('#transcript .entry')];
      const last = entries.at(-1), text = [...doc.querySelectorAll('#transcript .entry.text')].at(-1);
      return last?.classList.contains('round') && text?.querySelector('.codeblock') != null && entries.indexOf(text) < entries.indexOf(last);
    }), cfg.timeoutMs);
    const seen = await ui.chatEval((doc) => {
      const e = [...doc.querySelectorAll('#transcript .entry.text')].at(-1);
      const q = (sel) => e.querySelector(sel);
      const block = q('.codeblock');
      return {
        h3: q('h3')?.textContent, table: e.querySelectorAll('table tr').length, li: e.querySelectorAll('ul > li').length,
        quote: q('blockquote')?.textContent.trim(), strong: q('strong')?.textContent, del: q('s')?.textContent,
        lang: block?.querySelector('.codeblock-lang')?.textContent, codeClass: block?.querySelector('code')?.className,
        keywords: block?.querySelectorAll('.hljs-keyword').length, strings: block?.querySelectorAll('.hljs-string').length,
        buttons: [...(block?.querySelectorAll('button') ?? [])].map((b) => b.textContent),
        path: q('a.path-link[data-line]') ? `${q('a.path-link[data-line]').dataset.path}:${q('a.path-link[data-line]').dataset.line}` : null,
        injected: doc.querySelectorAll('#transcript img, #transcript script, #transcript [onerror]').length,
      };
    });
    ui.log(`rendered: ${JSON.stringify(seen)}`);
    check(seen.h3 === 'Plan for review.go', `heading ${seen.h3}`);
    check(seen.table === 3 && seen.li === 2 && seen.quote === 'Nothing else changes.' && seen.strong === 'rename' && seen.del === 'the old', `elements ${JSON.stringify(seen)}`);
    check(seen.lang === 'go' && seen.codeClass === 'hljs language-go' && seen.keywords >= 1 && seen.strings >= 1, `code block ${JSON.stringify(seen)}`);
    check(['Copy', 'Insert', 'Apply'].every((b) => seen.buttons.includes(b)), `buttons ${seen.buttons}`);
    check(seen.path === 'review.go:3', `path link ${seen.path}`);
    check(seen.injected === 0, 'raw HTML from the model became an element');
    await ui.shot('rendered-answer');

    // The path link opens review.go at line 3; Insert puts the block at that cursor.
    await ui.chatEval((doc) => [...doc.querySelectorAll('#transcript a.path-link[data-line]')].at(-1).click());
    await waitFor('review.go at line 3 (the status bar says Ln 3)', () => ui.page.evaluate(() =>
      [...document.querySelectorAll('.statusbar-item')].some((s) => /Ln 3, Col 1\b/.test(s.textContent ?? ''))), cfg.timeoutMs);
    await ui.chatEval((doc) => [...doc.querySelectorAll('#transcript .codeblock button[data-code-action="insert"]')].at(-1).click());
    await waitFor('the inserted code in review.go', async () => (await ui.editorText()).includes('fmt.Println("renamed")'), cfg.timeoutMs);
    await ui.shot('inserted');
    // Leave review.go as it is on disk: the Go test reads the file afterwards.
    await ui.command('File: Revert File');
    await waitFor('review.go reverted', async () => !(await ui.editorText()).includes('fmt.Println("renamed")'), cfg.timeoutMs);
  }],

  ['follow-hidden-resized', async (ui, cfg) => {
    await showChat(ui, cfg);
    await ui.chatPrompt(cfg.followPrompt);
    await waitFor('the long answer streaming', async () => (await lastAnswer(ui)).includes('Line 1 '), cfg.timeoutMs);
    // Hidden while the answer goes on arriving, then shown in a smaller window.
    await ui.command('View: Close Primary Side Bar');
    await waitFor('the whole long answer (arrived while hidden)', async () => (await lastAnswer(ui)).includes(cfg.followAnswerEnd), cfg.timeoutMs * 2);
    await ui.page.setViewport({ width: 1200, height: 760 });
    await showChat(ui, cfg);
    await waitInView(ui, cfg, 'the end of the answer in view after the view was hidden and resized');
    await ui.shot('follow-after-hide-resize');
  }],

  ['follow-after-send', async (ui, cfg) => {
    // The user scrolls up to read: new output no longer pulls the view down...
    await ui.chatEval((doc) => {
      doc.getElementById('transcript').scrollTop = 0;
    });
    await waitFor('the chat scrolled up', async () => (await gap(ui)) > 200, cfg.timeoutMs);
    // ...until they send: then the new answer is followed as it streams.
    await ui.chatPrompt(cfg.againPrompt);
    await waitFor('the second answer streaming', async () => (await lastAnswer(ui)).includes('Again 1 '), cfg.timeoutMs);
    await waitInView(ui, cfg, 'the streaming answer in view after sending');
    await ui.shot('follow-after-send');
    await waitFor('the second answer whole', async () => (await lastAnswer(ui)).includes(cfg.followAnswerEnd), cfg.timeoutMs * 2);
    await waitInView(ui, cfg, 'the end of the second answer in view');
    await ui.page.setViewport({ width: 1400, height: 900 });
  }],
];
