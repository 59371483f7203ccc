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
  const send = document.getElementById('send');
  const steer = document.getElementById('steer');
  const queue = document.getElementById('queue');
  const suggest = document.getElementById('suggest');
  // The completion list (slash commands, modes, @files): the extension
  // decides what to offer (src/logic/completion.ts); this only shows it.
  let asked = 0;
  let offer = null; // {id, start, end, items, active}

  // Following new output: the transcript stays scrolled to its end while
  // `follow` holds. Only the user's own scrolling away from the end clears
  // it; sending a prompt sets it again. Sizes are not trusted while the
  // view is hidden (a hidden view is 0 px high, so everything looks
  // "scrolled up"); when it is shown or resized it scrolls to the end again
  // if it follows.
  let follow = true;

  function atEnd() {
    return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  }

  function toEnd() {
    if (transcript.clientHeight > 0) transcript.scrollTop = transcript.scrollHeight;
  }

  transcript.addEventListener('scroll', () => {
    if (document.visibilityState === 'hidden' || transcript.clientHeight === 0) return;
    follow = atEnd();
  });
  new ResizeObserver(() => {
    if (follow) toEnd();
  }).observe(transcript);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && follow) toEnd();
  });

  function fragment(html) {
    const t = document.createElement('template');
    t.innerHTML = html;
    return t.content;
  }

  window.addEventListener('message', (event) => {
    const msg = event.data;
    if (msg.type === 'reset') {
      transcript.replaceChildren(fragment(msg.html));
    } else if (msg.type === 'entries') {
      for (const e of msg.entries) {
        const old = transcript.querySelector(`[data-i="${e.index}"]`);
        const node = fragment(e.html);
        if (old) {
          // Each <details> of the card stays as the user left it (open or
          // closed) while the card updates; a new one keeps its default.
          const was = [...old.querySelectorAll('details')].map((d) => d.open);
          old.replaceWith(node);
          const fresh = transcript.querySelectorAll(`[data-i="${e.index}"] details`);
          was.forEach((open, i) => {
            if (fresh[i]) fresh[i].open = open;
          });
        } else {
          transcript.appendChild(node);
        }
      }
    } else if (msg.type === 'answer') {
      // A streaming answer: its new final blocks are appended, only its
      // last block is replaced (what is above does not flicker or lose a
      // selection).
      const entry = transcript.querySelector(`[data-i="${msg.index}"]`);
      const blocks = entry && entry.querySelector('.md-blocks');
      const tail = entry && entry.querySelector('.md-tail');
      if (!blocks || !tail) {
        vscode.postMessage({ type: 'ready' }); // out of step: draw everything again
        return;
      }
      for (const html of msg.blocks) blocks.appendChild(fragment(html));
      tail.replaceChildren(fragment(msg.tail));
    } else if (msg.type === 'status') {
      status.textContent = msg.text;
    } else if (msg.type === 'queue') {
      queue.replaceChildren(fragment(msg.html));
    } else if (msg.type === 'busy') {
      // While a prompt runs the input stays usable: Enter queues, the
      // steer button (or Ctrl/Cmd+Enter) steers the running turn.
      steer.hidden = !msg.busy;
      send.textContent = msg.busy ? 'Queue' : 'Send';
    } else if (msg.type === 'focus') {
      input.focus();
    } else if (msg.type === 'suggestions') {
      if (msg.id === asked) show(msg);
      return;
    }
    if (follow) toEnd();
  });

  // Clicks in answers: a code block's buttons, a file path, a web link. The
  // extension does each (and checks the path again); the webview navigates
  // nowhere itself.
  transcript.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const child = target && target.closest('button[data-child-transcript]');
    if (child) {
      vscode.postMessage({ type: 'childTranscript', toolCallId: child.dataset.childTranscript });
      return;
    }
    const button = target && target.closest('button[data-code-action]');
    if (button) {
      const code = button.closest('.codeblock')?.querySelector('pre code');
      if (code) vscode.postMessage({ type: 'code', action: button.dataset.codeAction, code: code.textContent });
      if (button.dataset.codeAction === 'copy') flash(button, 'Copied');
      return;
    }
    const link = target && target.closest('a');
    if (!link) return;
    event.preventDefault();
    if (link.dataset.path) {
      vscode.postMessage({ type: 'openPath', path: link.dataset.path, line: Number(link.dataset.line || 0) });
    } else if (link.classList.contains('external-link')) {
      vscode.postMessage({ type: 'openLink', href: link.getAttribute('href') });
    }
  });

  function flash(button, text) {
    const label = button.textContent;
    button.textContent = text;
    button.disabled = true;
    setTimeout(() => {
      button.textContent = label;
      button.disabled = false;
    }, 1200);
  }

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

  // A queued message's edit and remove buttons: the extension asks the
  // daemon (agent/queue) and redraws the queue from its answer.
  queue.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const button = target && target.closest('button[data-queue-action]');
    const item = button && button.closest('[data-queue-id]');
    if (item) vscode.postMessage({ type: 'queueAction', action: button.dataset.queueAction, id: item.dataset.queueId });
  });

  // Images pasted or dropped into the input go with the next prompt; the
  // extension checks them (logic/images.ts), the daemon their bytes.
  const attachments = document.getElementById('attachments');
  const imageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
  let images = [];
  function drawAttachments() {
    attachments.replaceChildren(...images.map((img, i) => {
      const chip = document.createElement('span');
      chip.className = 'attachment';
      chip.textContent = `🖼 ${img.name} (${Math.ceil((img.data.length * 3) / 4 / 1024)} KB)`;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'icon';
      remove.title = 'Remove';
      remove.textContent = '✕';
      remove.addEventListener('click', () => { images.splice(i, 1); drawAttachments(); });
      chip.append(remove);
      return chip;
    }));
  }
  function attach(files) {
    for (const file of files) {
      if (!imageTypes.includes(file.type)) continue;
      const reader = new FileReader();
      reader.onload = () => {
        const url = String(reader.result);
        images.push({ name: file.name || 'pasted image', mimeType: file.type, data: url.slice(url.indexOf(',') + 1) });
        drawAttachments();
      };
      reader.readAsDataURL(file);
    }
  }
  input.addEventListener('paste', (event) => {
    const files = [...(event.clipboardData?.files ?? [])].filter((f) => imageTypes.includes(f.type));
    if (files.length === 0) return; // text pastes as text
    event.preventDefault();
    attach(files);
  });
  form.addEventListener('dragover', (event) => event.preventDefault());
  form.addEventListener('drop', (event) => {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (!files.some((f) => imageTypes.includes(f.type))) return;
    event.preventDefault();
    attach(files);
  });

  function submit(asSteer) {
    const text = input.value.trim();
    if (!text) return;
    vscode.postMessage({ type: 'prompt', text, steer: asSteer, images });
    images = [];
    drawAttachments();
    input.value = '';
    close();
    follow = true;
    toEnd();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(false);
  });
  steer.addEventListener('click', () => submit(true));
  input.addEventListener('keydown', (event) => {
    if (offer && !event.isComposing) {
      const n = offer.items.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        offer.active = (offer.active + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
        draw();
        return;
      }
      if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey && !event.ctrlKey && !event.metaKey)) {
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
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing) {
      event.preventDefault();
      submit(true);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  toEnd();
  vscode.postMessage({ type: 'ready' });
})();
