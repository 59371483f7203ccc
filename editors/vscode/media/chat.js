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
    }
    if (follow) transcript.scrollTop = transcript.scrollHeight;
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    vscode.postMessage({ type: 'prompt', text });
    input.value = '';
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  vscode.postMessage({ type: 'ready' });
})();
