// The inline completion step: ghost text from the daemon's
// textDocument/inlineCompletion (the fake FIM model's one scripted
// answer, cfg.inlineText), shown in review.go and accepted with Tab.
// The suggestion is invoked (editor.action.inlineSuggest.trigger, Alt+\)
// rather than typed for, and the Go test turns VS Code's automatic
// suggestions off: each keystroke, and the accept itself, would be an
// automatic request of its own, and the strict fake answers exactly one.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './ui.mjs';

/** ghost is the ghost text VS Code shows in the visible code editor, or ''. */
function ghost(page) {
  return page.evaluate(() => {
    const ed = [...document.querySelectorAll('.editor-instance .monaco-editor:not(.modified-in-monaco-diff-editor):not(.original-in-monaco-diff-editor)')]
      .find((e) => e.offsetParent !== null);
    if (!ed) return '';
    return [...ed.querySelectorAll('.ghost-text-decoration, .ghost-text')].map((g) => g.textContent ?? '').join('').replace(/\u00a0/g, ' ');
  });
}

async function chord(page, modifier, key) {
  await page.keyboard.down(modifier);
  await page.keyboard.press(key);
  await page.keyboard.up(modifier);
}

const disk = (cfg) => readFileSync(join(cfg.workspace, cfg.file), 'utf8');

export const inlineStep = ['inline-completion', async (ui, cfg) => {
  const { page } = ui;
  // The side bar shows the chat's container: back to the explorer for the file.
  await ui.command('View: Show Explorer');
  await (await waitFor(`${cfg.file} in the explorer`, () => page.$(`.explorer-folders-view .monaco-list-row[aria-label="${cfg.file}"]`), cfg.timeoutMs)).click();
  await waitFor(`${cfg.file} in an editor`, async () => (await ui.editorText()).includes('var y = oldName'), cfg.timeoutMs);
  await (await page.$('.editor-instance .monaco-editor .view-lines')).click();
  await chord(page, 'Control', 'End'); // the empty line after the last one
  // VS Code's own "Trigger Inline Suggestion" (Alt+\), run once from the
  // palette: an invoked request goes to the model at once (no debounce),
  // and a second one would be a second model call.
  await ui.command('Trigger Inline Suggestion');
  let shown = '';
  try {
    await waitFor('the ghost text', async () => {
      shown = await ghost(page);
      return shown.includes(cfg.inlineText) ? shown : undefined;
    }, cfg.timeoutMs);
  } catch (err) {
    const status = await page.evaluate(() => [...document.querySelectorAll('.statusbar-item')].map((e) => e.getAttribute('aria-label') ?? e.textContent).join(' | '));
    throw new Error(`${err.message}; ghost text seen: ${JSON.stringify(shown)}; status bar: ${status}`);
  }
  ui.log(`ghost text: ${JSON.stringify(shown)}`);
  await ui.shot('inline-ghost');
  await page.keyboard.press('Tab');
  await waitFor('the suggestion accepted into the text (no ghost left)', async () =>
    (await ghost(page)) === '' && (await ui.editorText()).includes(cfg.inlineText), cfg.timeoutMs);
  await chord(page, 'Control', 'KeyS');
  await waitFor(`${cfg.file} saved with the suggestion`, () => disk(cfg) === cfg.inlineSaved, cfg.timeoutMs).catch((err) => {
    throw new Error(`${err.message}; ${cfg.file} holds ${JSON.stringify(disk(cfg))}`);
  });
  await ui.shot('inline-accepted');
}];
