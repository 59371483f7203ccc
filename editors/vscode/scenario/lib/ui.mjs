// Driving VS Code's workbench as a user does, through puppeteer-core: the
// command palette, quick picks, modal dialogs, code lenses and the chat
// webview. Every wait polls the DOM for what a user would see; nothing
// here looks at pixels.

import { join } from 'node:path';

/** waitFor polls fn (in node) until it returns a truthy value or the time is up. */
export async function waitFor(what, fn, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export class Ui {
  constructor(page, artifacts, log) {
    this.page = page;
    this.artifacts = artifacts;
    this.log = log;
    this.shots = [];
  }

  async shot(name) {
    const file = join(this.artifacts, `${String(this.shots.length + 1).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file });
    this.shots.push(file);
    this.log(`screenshot ${file}`);
  }

  /**
   * paletteFind opens the command palette on title and waits for its row;
   * the palette does not refresh while open, so a command registered
   * meanwhile (an extension still loading) is looked up again.
   */
  async paletteFind(title, timeoutMs = 30_000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      await this.page.keyboard.press('F1');
      const input = await this.quickInput();
      await input.type(title);
      const found = await waitFor(`palette row "${title}"`, () => this.page.evaluate((t) =>
        [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].some((r) => r.getAttribute('aria-label')?.startsWith(t)), title), 2000)
        .catch(() => false);
      if (found) return;
      await this.page.keyboard.press('Escape');
      await waitFor('the palette to close', async () => !(await this.quickInputVisible()), 5000);
      if (Date.now() > end) throw new Error(`no command "${title}" in the palette`);
    }
  }

  /** command runs a command palette entry by its title. */
  async command(title) {
    await this.paletteFind(title);
    await this.page.keyboard.press('Enter');
  }

  /** quickInput waits for the quick input to show and returns its input box. */
  async quickInput() {
    return waitFor('the quick input', async () => {
      const el = await this.page.$('.quick-input-widget:not([style*="display: none"]) input.input');
      if (!el) return undefined;
      return (await el.evaluate((e) => e.offsetParent !== null)) ? el : undefined;
    });
  }

  quickInputVisible() {
    return this.page.evaluate(() => {
      const w = document.querySelector('.quick-input-widget');
      return !!w && w.style.display !== 'none' && w.offsetParent !== null;
    });
  }

  /** quickPick is what the visible quick input shows: title, placeholder, prompt, rows (label, checked). */
  quickPick() {
    return this.page.evaluate(() => {
      const w = document.querySelector('.quick-input-widget');
      if (!w || w.style.display === 'none') return undefined;
      const input = w.querySelector('input.input');
      return {
        title: w.querySelector('.quick-input-title')?.textContent ?? '',
        placeholder: input?.getAttribute('placeholder') ?? '',
        ariaLabel: input?.getAttribute('aria-label') ?? '',
        message: w.querySelector('.quick-input-message')?.textContent ?? '',
        text: w.innerText,
        rows: [...w.querySelectorAll('.monaco-list-row')].map((r) => ({
          label: r.getAttribute('aria-label') ?? r.textContent ?? '',
          checked: r.querySelector('input[type=checkbox]')?.checked ?? r.getAttribute('aria-checked') === 'true',
        })),
      };
    });
  }

  /** quickPickOk clicks the quick pick's OK button (a multi-select pick's confirm). */
  async quickPickOk() {
    const ok = await waitFor('the quick pick OK button', async () => {
      for (const b of await this.page.$$('.quick-input-widget .monaco-button')) {
        if ((await b.evaluate((e) => (e.textContent ?? '').trim())) === 'OK') return b;
      }
      return undefined;
    }, 5000);
    await ok.click();
  }

  /** dialog waits for a modal dialog and returns its message, detail and buttons. */
  dialog() {
    return waitFor('a modal dialog', () => this.page.evaluate(() => {
      const box = document.querySelector('.monaco-dialog-box');
      if (!box) return undefined;
      return {
        message: box.querySelector('.dialog-message-text')?.textContent ?? '',
        detail: box.querySelector('.dialog-message-detail')?.textContent ?? '',
        buttons: [...box.querySelectorAll('.dialog-buttons .monaco-button')].map((b) => b.textContent ?? ''),
      };
    }));
  }

  async clickDialogButton(label) {
    const clicked = await this.page.evaluate((l) => {
      const b = [...document.querySelectorAll('.monaco-dialog-box .dialog-buttons .monaco-button')].find((x) => x.textContent === l);
      if (!b) return false;
      b.click();
      return true;
    }, label);
    if (!clicked) throw new Error(`no dialog button "${label}"`);
    await waitFor('the dialog to close', async () => !(await this.page.$('.monaco-dialog-box')));
  }

  /** lenses are the diff editor's hunk lenses: title, and whether it carries the check mark. */
  lenses() {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.monaco-diff-editor .codelens-decoration a')]
        .map((a) => ({ title: (a.textContent ?? '').trim(), checked: !!a.querySelector('.codicon-check') }))
        // The daemon's own lens ("Revert agent change") shows on the file's side.
        .filter((l) => /^(Accept|Reject) hunk/.test(l.title)));
  }

  /** revertLenses are the daemon's revert lens titles in the editors outside any diff. */
  revertLenses() {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.monaco-editor .codelens-decoration a')]
        .filter((a) => !a.closest('.monaco-diff-editor'))
        .map((a) => (a.textContent ?? '').trim())
        .filter((t) => t.startsWith('Revert')));
  }

  /**
   * clickLens clicks the lens whose title starts with prefix, with the
   * mouse (VS Code reacts to mousedown); lenses are redrawn whenever they
   * change, so a lens gone from the page is looked up again.
   */
  async clickLens(prefix) {
    await waitFor(`code lens "${prefix}"`, async () => {
      for (const a of await this.page.$$('.monaco-diff-editor .codelens-decoration a')) {
        const title = await a.evaluate((e) => (e.textContent ?? '').trim());
        if (title.startsWith(prefix)) {
          await a.click();
          return true;
        }
      }
      return false;
    }, 10_000);
  }

  /** editorText is the visible text of the active (non-diff) editor. */
  editorText() {
    return this.page.evaluate(() => {
      const ed = [...document.querySelectorAll('.editor-instance .monaco-editor:not(.modified-in-monaco-diff-editor):not(.original-in-monaco-diff-editor) .view-lines')]
        .find((e) => e.offsetParent !== null);
      return ed ? ed.innerText.replace(/\u00a0/g, ' ') : '';
    });
  }

  /**
   * chatEval runs body(doc, frames) in the page on the chat's
   * document (frames: the iframes enclosing it, outermost first) and
   * returns its result, waiting until that document is there. The document
   * is reached by walking iframe.contentDocument from the workbench's
   * document (see findChatDocument), not through puppeteer's frame tree:
   * VS Code's webview writes the chat into an inner frame with
   * document.open()/write() and swaps it from #pending-frame to
   * #active-frame, and under load puppeteer at times never lists that
   * frame although Chromium drew it.
   */
  chatEval(body, timeoutMs = 20_000) {
    const expr = `(() => {
      const at = (${findChatDocument})(document);
      if (!at) return { found: false };
      return Promise.resolve((${body})(at.doc, at.frames)).then((value) => ({ found: true, value }));
    })()`;
    return waitFor('the chat webview', async () => {
      const r = await this.page.evaluate(expr);
      return r.found ? { value: r.value } : undefined;
    }, timeoutMs).then((r) => r.value);
  }

  /** chat waits until the chat view's document (the one holding #transcript) is in the page. */
  async chat(timeoutMs = 20_000) {
    await this.chatEval(() => true, timeoutMs);
  }

  /** frameReport says which frames puppeteer lists and which the DOM holds, for a failure's log. */
  async frameReport() {
    const lines = ['puppeteer frames:'];
    for (const f of this.page.frames()) {
      let has = 'no';
      try { has = (await f.$('#transcript')) ? 'yes' : 'no'; } catch (err) { has = `error ${err.message}`; }
      lines.push(`  ${f.detached ? 'detached ' : ''}${f.url().slice(0, 120)} transcript=${has}`);
    }
    lines.push('iframes in the DOM:');
    const dom = await this.page.evaluate(() => {
      const out = [];
      const walk = (doc, depth) => {
        for (const f of doc.querySelectorAll('iframe')) {
          let d = null;
          try { d = f.contentDocument; } catch { /* cross-origin */ }
          out.push(`${'  '.repeat(depth + 1)}iframe#${f.id || '-'}.${f.className || '-'} ${d ? `${d.location.href.slice(0, 100)} ${d.readyState} transcript=${!!d.querySelector('#transcript')}` : 'no document (cross-origin?)'}`);
          if (d) walk(d, depth + 1);
        }
      };
      walk(document, 0);
      return out.join('\n');
    });
    lines.push(dom);
    return lines.join('\n');
  }

  /** chatEntries are the transcript's entries: class and text. */
  chatEntries(timeoutMs) {
    return this.chatEval((doc) => [...doc.querySelectorAll('#transcript .entry')]
      .map((e) => ({ cls: e.className.replace(/^entry /, ''), text: e.innerText })), timeoutMs);
  }

  /**
   * chatPrompt types text into the chat's input as a user does: a mouse
   * click on the input (at its place in the page), then keystrokes, then
   * the send button. The input's focus is checked before every key: after
   * a window reload the workbench restores the editor and its focus late
   * under load, and a user whose typing went astray clicks the input again.
   */
  async chatPrompt(text) {
    let i = 0;
    for (const ch of text) {
      if ((await this.focusChatInput()) && i > 0) this.log(`the chat input lost the focus after ${i} keys; clicked it again`);
      await this.page.keyboard.type(ch);
      i++;
    }
    const typed = await this.chatEval((doc) => doc.querySelector('#input')?.value ?? '');
    if (typed !== text) throw new Error(`the chat input holds ${JSON.stringify(typed)}, typed ${JSON.stringify(text)}`);
    await this.chatEval((doc) => doc.querySelector('#send').click());
  }

  /**
   * focusChatInput clicks the chat's input unless it holds the focus, until
   * it does; true when it had to click.
   */
  async focusChatInput() {
    const focused = () => this.chatEval((doc) => doc.hasFocus() && doc.activeElement?.id === 'input');
    if (await focused()) return false;
    return waitFor('the chat input to take the focus', async () => {
      const at = await this.chatEval((doc, frames) => {
        const el = doc.querySelector('#input');
        if (!el) return undefined;
        // The input's box in the page: its box in its document plus each
        // enclosing iframe's content box, up to the workbench.
        const r = el.getBoundingClientRect();
        let x = r.left + r.width / 2;
        let y = r.top + r.height / 2;
        for (const f of frames) {
          const fr = f.getBoundingClientRect();
          x += fr.left + f.clientLeft;
          y += fr.top + f.clientTop;
        }
        return { x, y };
      });
      if (!at) return false;
      await this.page.mouse.click(at.x, at.y);
      return focused();
    });
  }

  chatStatus() {
    return this.chatEval((doc) => doc.querySelector('#status')?.textContent ?? '');
  }
}

/**
 * findChatDocument (run in the page) is the document holding #transcript
 * among root's frames, nested: VS Code's webview frames are same-origin
 * with the workbench under code-server, so contentDocument reaches them.
 * An #active-frame is looked in before a #pending-frame, which holds the
 * next document until it is loaded.
 */
function findChatDocument(root) {
  const rank = (f) => (f.id === 'active-frame' ? 0 : f.id === 'pending-frame' ? 2 : 1);
  const walk = (doc, frames) => {
    if (doc.querySelector('#transcript')) return { doc, frames };
    if (frames.length >= 4) return undefined;
    for (const f of [...doc.querySelectorAll('iframe')].sort((a, b) => rank(a) - rank(b))) {
      let d = null;
      try { d = f.contentDocument; } catch { /* cross-origin: not the chat */ }
      const found = d && walk(d, [...frames, f]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(root, []);
}
