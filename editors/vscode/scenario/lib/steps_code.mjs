// An answer's code block and path link in use (issue 25, item 1's
// acceptance): a fenced `java` block renders highlighted, with its
// language and Copy / Insert / Apply; its Hello.java:3 link opens the
// file with the cursor on line 3; Insert puts the block at that cursor
// (between lines 2 and 3); Apply opens our hunk review of the block
// against the file, and accepting it writes the block. Run after
// steps_ask.mjs, in the same window (e2e/scenario_ask_test.go).

import { waitFor } from './ui.mjs';

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** cursorLine is the active editor's cursor as the status bar says it ("Ln 3, Col 1"), or ''. */
const cursorAt = (ui) => ui.page.evaluate(() =>
  [...document.querySelectorAll('.statusbar-item')].map((s) => /Ln \d+, Col \d+/.exec(s.textContent ?? '')?.[0]).find(Boolean) ?? '');

/** activeTab is the label of the active editor's tab. */
const activeTab = (ui) => ui.page.evaluate(() => document.querySelector('.tabs-container .tab.active')?.getAttribute('aria-label') ?? '');

export const codeSteps = [
  ['java-block-rendered', async (ui, cfg) => {
    await ui.chatPrompt(cfg.javaPrompt);
    // The whole answer: its round's usage line comes after it.
    await waitFor('the java answer, whole', () => ui.chatEval((doc) => {
      const entries = [...doc.querySelectorAll('#transcript .entry')];
      const text = [...doc.querySelectorAll('#transcript .entry.text')].at(-1);
      return entries.at(-1)?.classList.contains('round') && text?.querySelector('.codeblock') != null && entries.indexOf(text) < entries.length - 1;
    }), cfg.timeoutMs);
    const seen = await ui.chatEval((doc) => {
      const e = [...doc.querySelectorAll('#transcript .entry.text')].at(-1);
      const block = e.querySelector('.codeblock');
      const link = e.querySelector('a.path-link[data-line]');
      return {
        lang: block?.querySelector('.codeblock-lang')?.textContent, codeClass: block?.querySelector('code')?.className,
        keywords: block?.querySelectorAll('.hljs-keyword').length, strings: block?.querySelectorAll('.hljs-string').length,
        titles: block?.querySelectorAll('.hljs-title').length,
        buttons: [...(block?.querySelectorAll('button') ?? [])].map((b) => b.textContent),
        code: block?.querySelector('code')?.textContent,
        link: link ? `${link.dataset.path}:${link.dataset.line}` : null,
      };
    });
    ui.log(`java block: ${JSON.stringify(seen)}`);
    check(seen.lang === 'java' && seen.codeClass === 'hljs language-java', `the block's language ${JSON.stringify(seen)}`);
    check(seen.keywords >= 3 && seen.strings >= 1, `the block is not highlighted ${JSON.stringify(seen)}`);
    check(['Copy', 'Insert', 'Apply'].every((b) => seen.buttons.includes(b)), `buttons ${JSON.stringify(seen.buttons)}`);
    check(seen.code === cfg.javaCode, `the block's code ${JSON.stringify(seen.code)}`);
    check(seen.link === `${cfg.javaFile}:3`, `path link ${seen.link}`);
    await ui.shot('java-block');
  }],

  ['path-line-opens-at-line', async (ui, cfg) => {
    await ui.chatEval((doc) => [...doc.querySelectorAll('#transcript a.path-link[data-line]')].at(-1).click());
    await waitFor(`${cfg.javaFile} active with the cursor on line 3`, async () =>
      (await activeTab(ui)).startsWith(cfg.javaFile) && (await cursorAt(ui)) === 'Ln 3, Col 1', cfg.timeoutMs).catch(async (err) => {
      throw new Error(`${err.message}; tab ${JSON.stringify(await activeTab(ui))}, cursor ${JSON.stringify(await cursorAt(ui))}`);
    });
    await ui.shot('path-line');
  }],

  ['insert-at-cursor', async (ui, cfg) => {
    await ui.chatEval((doc) => [...doc.querySelectorAll('#transcript .codeblock button[data-code-action="insert"]')].at(-1).click());
    const want = cfg.javaSource.split('\n').slice(0, 2).join('\n') + '\n' + cfg.javaCode + cfg.javaSource.split('\n').slice(2).join('\n');
    let text = '';
    await waitFor('the block inserted between lines 2 and 3', async () => {
      text = await ui.editorText();
      return text.trimEnd() === want.trimEnd();
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; ${cfg.javaFile} shows ${JSON.stringify(text)}, want ${JSON.stringify(want)}`);
    });
    await ui.shot('inserted-at-cursor');
    await ui.command('File: Revert File');
    await waitFor(`${cfg.javaFile} reverted`, async () => (await ui.editorText()).trimEnd() === cfg.javaSource.trimEnd(), cfg.timeoutMs);
  }],

  ['apply-goes-through-review', async (ui, cfg) => {
    await ui.chatEval((doc) => [...doc.querySelectorAll('#transcript .codeblock button[data-code-action="apply"]')].at(-1).click());
    const pick = await waitFor('the hunk review of the applied block', async () => {
      const qp = await ui.quickPick();
      return qp?.title.includes('review') ? qp : undefined;
    }, cfg.timeoutMs);
    ui.log(`apply's review: ${JSON.stringify(pick)}`);
    await waitFor("the review's lenses in the diff", async () => (await ui.lenses()).length >= 2, cfg.timeoutMs);
    // The diff shows the file as it is against the block: nothing is written before the answer.
    const sides = await ui.page.evaluate(() => [...document.querySelectorAll('.monaco-diff-editor .view-lines')].map((e) => e.innerText.replace(/\u00a0/g, ' ')));
    check(sides.some((t) => t.includes('// line 1')) && sides.some((t) => t.includes('System.out.println')), `the diff shows ${JSON.stringify(sides)}`);
    await ui.shot('apply-review');
    await ui.page.keyboard.press('Enter');
    let text = '';
    await waitFor(`${cfg.javaFile} holding the applied block (no selection: the whole file)`, async () => {
      text = await ui.editorText();
      return text.trimEnd() === cfg.javaCode.trimEnd();
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; the editor shows ${JSON.stringify(text)}`);
    });
    await ui.shot('applied');
  }],
];
