// The chat view's script: it inserts the markup the extension rendered
// (escaped there, in src/logic/render.ts) and sends the user's input back.
// No external resources; the page's CSP admits only this file.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const transcript = document.getElementById('transcript');
  const status = document.getElementById('status');
  const form = document.getElementById('ask');
  const input = document.getElementById('input');
  const cancel = document.getElementById('cancel');
  const suggest = document.getElementById('suggest');
  // The completion list (slash commands, modes, @files): the extension
  // decides what to offer (src/logic/completion.ts); this only shows it.
  let asked = 0;
  let offer = null; // {id, start, end, items, active}

  function nearBottom() {
    return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  }

  function fragment(html) {
    const t = document.createElement('template');
    t.innerHTML = html;
    return t.content;
  }

  window.addEventListener('message', (event) => {
    const msg = event.data;
    const follow = nearBottom();
    if (msg.type === 'reset') {
      transcript.replaceChildren(fragment(msg.html));
    } else if (msg.type === 'entries') {
      for (const e of msg.entries) {
        const old = transcript.querySelector(`[data-i="${e.index}"]`);
        const node = fragment(e.html);
        if (old) {
          // Keep an open <details> open while its card updates.
          const wasOpen = old.querySelector('details[open]') !== null;
          old.replaceWith(node);
          const fresh = transcript.querySelector(`[data-i="${e.index}"] details`);
          if (wasOpen && fresh) fresh.open = true;
        } else {
          transcript.appendChild(node);
        }
      }
    } else if (msg.type === 'status') {
      status.textContent = msg.text;
    } else if (msg.type === 'focus') {
      input.focus();
    } else if (msg.type === 'suggestions') {
      if (msg.id === asked) show(msg);
      return;
    }
    if (follow) transcript.scrollTop = transcript.scrollHeight;
  });

  function ask() {
    asked += 1;
    vscode.postMessage({ type: 'complete', id: asked, text: input.value, cursor: input.selectionStart });
  }

  function show(msg) {
    offer = msg.items.length > 0 ? { start: msg.start, end: msg.end, items: msg.items, active: 0 } : null;
    draw();
  }

  function draw() {
    suggest.replaceChildren();
    suggest.hidden = offer === null;
    if (!offer) return;
    offer.items.forEach((item, i) => {
      const li = document.createElement('li');
      li.setAttribute('role', 'option');
      if (i === offer.active) li.className = 'active';
      li.textContent = item.label;
      if (item.detail) {
        const d = document.createElement('span');
        d.className = 'detail';
        d.textContent = item.detail;
        li.appendChild(d);
      }
      // mousedown, not click: the textarea keeps the focus.
      li.addEventListener('mousedown', (event) => {
        event.preventDefault();
        accept(i);
      });
      suggest.appendChild(li);
    });
    suggest.children[offer.active].scrollIntoView({ block: 'nearest' });
  }

  function accept(i) {
    const item = offer.items[i];
    const v = input.value;
    input.value = v.slice(0, offer.start) + item.insert + v.slice(offer.end);
    const cursor = offer.start + item.insert.length;
    input.setSelectionRange(cursor, cursor);
    offer = null;
    draw();
    ask(); // "/mode " goes on to the modes
  }

  function close() {
    asked += 1; // an answer still on its way is dropped
    offer = null;
    draw();
  }

  input.addEventListener('input', ask);
  input.addEventListener('blur', close);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    vscode.postMessage({ type: 'prompt', text });
    input.value = '';
    close();
  });
  input.addEventListener('keydown', (event) => {
    if (offer && !event.isComposing) {
      const n = offer.items.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        offer.active = (offer.active + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
        draw();
        return;
      }
      if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) {
        event.preventDefault();
        accept(offer.active);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  vscode.postMessage({ type: 'ready' });
})();
