// What the client scripts of this directory share: the document model
// and the way a script reports to the Go test.
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { spawn } = require('child_process');
const rpc = require('vscode-jsonrpc/node');

// The Go test writes the script's config (the daemon's command line, the
// workspace, what to expect) to the file named by the first argument.
const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// Failed checks collect here; a script's summary carries them.
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

// startDaemon starts the daemon of config.command in the workspace and
// connects to it over its stdio (not listening yet: register handlers,
// then conn.listen()). exited resolves to the daemon's exit {code, signal}.
function startDaemon() {
  const child = spawn(config.command[0], config.command.slice(1), {
    cwd: config.root, stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  return { conn, exited, child };
}

// stopDaemon ends the daemon as an editor does (shutdown, then exit) and
// resolves to its exit {code, signal}; one still running after 5 s is
// killed and its exit reported as code null.
async function stopDaemon({ conn, exited, child }) {
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  let timer;
  const exit = await Promise.race([
    exited,
    new Promise((resolve) => {
      timer = setTimeout(() => resolve({ code: null, signal: 'did not exit within 5s' }), 5000);
    }),
  ]);
  clearTimeout(timer);
  conn.dispose();
  if (exit.code === null) child.kill('SIGKILL');
  return exit;
}

// openDocument initializes the daemon as an editor open on config.root
// (named clientName, with workspace edits and resource operations, and
// capabilities on top: window, experimental, …), then opens doc as
// languageId. It resolves to the initialize result.
async function openDocument(conn, doc, clientName, languageId, capabilities) {
  const rootUri = pathToFileURL(config.root).href;
  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    clientInfo: { name: clientName },
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(config.root) }],
    capabilities: {
      workspace: {
        applyEdit: true,
        workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
      },
      ...capabilities,
    },
  });
  await conn.sendNotification('initialized', {});
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: doc.uri, languageId, version: doc.version, text: doc.text },
  });
  return init;
}

// configDocument is config.file as the editor holds it, with
// config.originalText.
function configDocument() {
  return new Document(pathToFileURL(path.join(config.root, config.file)).href, config.originalText);
}

// answerApplyEdits answers workspace/applyEdit for the one open document,
// as an editor does: every change must be a text edit of doc at its
// current version, or nothing is applied; then the edits land and the
// daemon hears of them (didChange). Each request is pushed onto log.
function answerApplyEdits(conn, doc, log) {
  conn.onRequest('workspace/applyEdit', async (params) => {
    log.push(params);
    const changes = params.edit.documentChanges || [];
    for (const change of changes) {
      if (change.kind || change.textDocument.uri !== doc.uri) {
        return { applied: false, failureReason: `unexpected change ${JSON.stringify(change)}` };
      }
      if (change.textDocument.version !== doc.version) {
        return { applied: false, failureReason: `stale version ${change.textDocument.version}, buffer is at ${doc.version}` };
      }
    }
    for (const change of changes) {
      let contentChanges;
      try {
        contentChanges = doc.apply(change.edits);
      } catch (err) {
        return { applied: false, failureReason: String(err.message) };
      }
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: doc.uri, version: doc.version }, contentChanges,
      });
    }
    return { applied: true };
  });
}

// A document as the editor holds it: a JS string is UTF-16, so LSP
// positions (UTF-16 code units) index it directly.

class Document {
  constructor(uri, text) { this.uri = uri; this.text = text; this.version = 1; }

  offsetAt(pos) {
    let line = 0;
    let offset = 0;
    while (line < pos.line) {
      const nl = this.text.indexOf('\n', offset);
      if (nl < 0) return this.text.length; // past the last line: the end, as VS Code clamps it
      offset = nl + 1;
      line++;
    }
    const end = this.text.indexOf('\n', offset);
    const lineLength = (end < 0 ? this.text.length : end) - offset;
    if (pos.character > lineLength) {
      throw new Error(`character ${pos.character} is past the end of line ${pos.line} (${lineLength})`);
    }
    return offset + pos.character;
  }

  // apply applies text edits that are all relative to the text before
  // (LSP), from the end; it returns them as contentChanges in that order.
  apply(edits) {
    const sorted = edits
      .map((e, i) => ({ e, i, start: this.offsetAt(e.range.start), end: this.offsetAt(e.range.end) }))
      .sort((a, b) => b.start - a.start || b.i - a.i);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k].end > sorted[k - 1].start) throw new Error('overlapping text edits');
    }
    let text = this.text;
    for (const s of sorted) text = text.slice(0, s.start) + s.e.newText + text.slice(s.end);
    this.text = text;
    this.version++;
    return sorted.map((s) => ({ range: s.e.range, text: s.e.newText }));
  }
}

// run runs main, prints its summary ({ok, failures, ...}) as one JSON line
// on stdout and exits 0 when ok, 1 on failed checks, 2 when main threw and
// 3 when it did not end within timeoutMs.
function run(main, timeoutMs) {
  const watchdog = setTimeout(() => {
    process.stdout.write(JSON.stringify({ ok: false, failures: ['watchdog: no end within the time limit'] }) + '\n');
    process.exit(3);
  }, timeoutMs || 30000);
  main().then((summary) => {
    clearTimeout(watchdog);
    process.stdout.write(JSON.stringify(summary) + '\n');
    process.exit(summary.ok ? 0 : 1);
  }, (err) => {
    clearTimeout(watchdog);
    process.stdout.write(JSON.stringify({ ok: false, failures: [String(err && err.stack || err)] }) + '\n');
    process.exit(2);
  });
}

module.exports = { Document, run, config, failures, check, startDaemon, stopDaemon, answerApplyEdits, openDocument, configDocument };
