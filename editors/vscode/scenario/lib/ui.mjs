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
   * chat is the webview frame of the chat view (the inner frame holding
   * #transcript): reached through the webview's iframes in the workbench's
   * DOM, as page.frames() can list a frame before (or after) its document.
   */
  chat(timeoutMs = 20_000) {
    const holds = async (f) => {
      try {
        return f && !f.detached && (await f.$('#transcript')) ? f : undefined;
      } catch {
        return undefined; // a frame navigating away
      }
    };
    return waitFor('the chat webview', async () => {
      for (const outer of await this.page.$$('iframe.webview')) {
        const f = await outer.contentFrame();
        const inner = f && (await f.$('iframe#active-frame').catch(() => null));
        const found = await holds(inner && (await inner.contentFrame()));
        if (found) return found;
      }
      for (const f of this.page.frames()) {
        const found = await holds(f);
        if (found) return found;
      }
      return undefined;
    }, timeoutMs);
  }

  /** frameReport says which frames the page has, for a failure's log. */
  async frameReport() {
    const lines = [];
    for (const f of this.page.frames()) {
      let has = 'no';
      try { has = (await f.$('#transcript')) ? 'yes' : 'no'; } catch (err) { has = `error ${err.message}`; }
      lines.push(`${f.detached ? 'detached ' : ''}${f.url().slice(0, 120)} transcript=${has}`);
    }
    return lines.join('\n');
  }

  /** chatEntries are the transcript's entries: class and text. */
  async chatEntries(timeoutMs) {
    const f = await this.chat(timeoutMs);
    return f.evaluate(() => [...document.querySelectorAll('#transcript .entry')].map((e) => ({ cls: e.className.replace(/^entry /, ''), text: e.innerText })));
  }

  async chatPrompt(text) {
    const f = await this.chat();
    await f.click('#input');
    await f.type('#input', text);
    await f.evaluate(() => document.querySelector('#send').click());
  }

  async chatStatus() {
    const f = await this.chat();
    return f.evaluate(() => document.querySelector('#status')?.textContent ?? '');
  }
}
