// A real LSP client written by others (vscode-jsonrpc, as VS Code uses it)
// driving agent-lsp through a prompt that edits two files and creates a
// third, then agent/checkpoints and agent/rewind: the rewind must arrive as
// ONE workspace/applyEdit (a DeleteFile for the new file), and applying the
// inverse edit this client recorded for it (the editor's undo) must bring
// the agent's versions back.
//
//   node rewind.js <config.json>
//
// The config (written by the Go test) names the daemon's command line, the
// workspace, the files and what the test expects. The script prints one
// JSON summary on stdout and exits non-zero when any check failed.
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');
const { run, config, failures, check, startDaemon, stopDaemon } = require('./client.js');


// offsetAt maps an LSP position (UTF-16 code units: a JS string indexes
// them directly) to an offset; past the last line is the end, as VS Code
// clamps it.
function offsetAt(text, pos) {
  let offset = 0;
  for (let line = 0; line < pos.line; line++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  const end = text.indexOf('\n', offset);
  const lineLength = (end < 0 ? text.length : end) - offset;
  if (pos.character > lineLength) throw new Error(`character ${pos.character} is past the end of line ${pos.line}`);
  return offset + pos.character;
}

function applyTextEdits(text, edits) {
  const sorted = edits
    .map((e, i) => ({ e, i, start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end) }))
    .sort((a, b) => b.start - a.start || b.i - a.i);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k].end > sorted[k - 1].start) throw new Error('overlapping text edits');
  }
  for (const s of sorted) text = text.slice(0, s.start) + s.e.newText + text.slice(s.end);
  return text;
}

function endPosition(text) {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

// Workspace is the editor's documents: open ones (the server knows them),
// and the ones a workspace edit touched, loaded from disk as an editor does.
class Workspace {
  constructor(conn) { this.conn = conn; this.docs = new Map(); this.undo = []; }

  get(uri) {
    if (this.docs.has(uri)) return this.docs.get(uri);
    const file = fileURLToPath(uri);
    if (!fs.existsSync(file)) return { exists: false };
    return { exists: true, text: fs.readFileSync(file, 'utf8'), version: 0, open: false };
  }

  text(file) {
    const d = this.get(pathToFileURL(file).href);
    return d.exists ? d.text : null;
  }

  async open(file) {
    const uri = pathToFileURL(file).href;
    const doc = { exists: true, text: fs.readFileSync(file, 'utf8'), version: 1, open: true };
    this.docs.set(uri, doc);
    await this.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'go', version: 1, text: doc.text } });
  }

  // apply applies a workspace edit all or nothing; with record, its
  // inverse is kept for undo.
  async apply(edit, record) {
    const next = new Map();
    const prior = new Map();
    const cur = (uri) => (next.has(uri) ? next.get(uri) : this.get(uri));
    for (const change of edit.documentChanges || []) {
      const uri = change.kind ? change.uri : change.textDocument.uri;
      if (!prior.has(uri)) prior.set(uri, { ...cur(uri) });
      const d = cur(uri);
      if (change.kind === 'create') {
        if (d.exists) throw new Error(`CreateFile for an existing file ${uri}`);
        next.set(uri, { exists: true, text: '', version: 0, open: false });
      } else if (change.kind === 'delete') {
        if (!d.exists && !(change.options && change.options.ignoreIfNotExists)) throw new Error(`DeleteFile for a missing file ${uri}`);
        next.set(uri, { exists: false, wasOpen: d.open });
      } else if (change.kind) {
        throw new Error(`unsupported resource operation ${change.kind}`);
      } else {
        if (!d.exists) throw new Error(`edit of a missing file ${uri}`);
        const v = change.textDocument.version;
        if (v !== null && v !== undefined && (!d.open || v !== d.version)) {
          throw new Error(`stale version ${v} of ${uri}, buffer is at ${d.version}`);
        }
        next.set(uri, { ...d, text: applyTextEdits(d.text, change.edits), version: d.open ? d.version + 1 : d.version });
      }
    }
    if (record) {
      const inverse = [];
      for (const [uri, before] of prior) {
        const after = next.get(uri);
        if (!before.exists && after.exists) inverse.push({ kind: 'delete', uri, options: { ignoreIfNotExists: true } });
        else if (before.exists && !after.exists) {
          inverse.push({ kind: 'create', uri },
            { textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: before.text }] });
        } else if (before.exists) {
          inverse.push({ textDocument: { uri, version: null },
            edits: [{ range: { start: { line: 0, character: 0 }, end: endPosition(after.text) }, newText: before.text }] });
        }
      }
      this.undo.push({ documentChanges: inverse });
    }
    for (const [uri, d] of next) {
      if (!d.exists) {
        this.docs.set(uri, { exists: false });
        const file = fileURLToPath(uri);
        if (fs.existsSync(file)) fs.unlinkSync(file);
        if (d.wasOpen) await this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
        continue;
      }
      this.docs.set(uri, d);
      if (d.open) {
        await this.conn.sendNotification('textDocument/didChange', {
          textDocument: { uri, version: d.version }, contentChanges: [{ text: d.text }] });
      }
    }
  }
}

async function main() {
  const daemon = startDaemon();
  const { conn } = daemon;
  const ws = new Workspace(conn);
  const applyEdits = [];
  conn.onRequest('workspace/applyEdit', async (params) => {
    applyEdits.push(params);
    try {
      await ws.apply(params.edit, true);
    } catch (err) {
      return { applied: false, failureReason: String(err.message) };
    }
    return { applied: true };
  });
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();

  const rootUri = pathToFileURL(config.root).href;
  await conn.sendRequest('initialize', {
    processId: process.pid, clientInfo: { name: 'vscode-jsonrpc e2e' }, rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(config.root) }],
    capabilities: {
      workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] } },
      window: { workDoneProgress: false },
    },
  });
  await conn.sendNotification('initialized', {});
  const abs = (f) => path.join(config.root, f);
  await ws.open(abs(config.openFile));

  const snapshot = () => Object.fromEntries(config.files.map((f) => [f, ws.text(abs(f))]));
  const result = await conn.sendRequest('agent/prompt', { prompt: config.prompt });
  const afterPrompt = snapshot();
  const list = await conn.sendRequest('agent/checkpoints', { sessionId: result.sessionId });
  const cp = list.checkpoints[0] || {};
  const editsBefore = applyEdits.length;
  const rewind = await conn.sendRequest('agent/rewind', {
    sessionId: result.sessionId, checkpointId: cp.checkpointId, restoreFiles: true, truncateConversation: true });
  const rewindEdits = applyEdits.slice(editsBefore);
  const afterRewind = snapshot();
  // The editor's undo: the inverse of the rewind's one edit.
  await ws.apply(ws.undo[ws.undo.length - 1], false);
  const afterUndo = snapshot();
  const second = await conn.sendRequest('agent/prompt', { sessionId: result.sessionId, prompt: config.secondPrompt });

  const exit = await stopDaemon(daemon);

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  check(result.stopReason === 'end_turn', `stopReason ${result.stopReason} (${result.error || ''})`);
  check(same(afterPrompt, config.agentTexts), `after the prompt ${JSON.stringify(afterPrompt)}`);
  check(list.checkpoints.length === 1 && same([...cp.files].sort(), [...config.files].sort()), `checkpoints ${JSON.stringify(list)}`);
  check(rewindEdits.length === 1, `${rewindEdits.length} workspace/applyEdit requests for the rewind`);
  check(rewindEdits.length === 1 && rewindEdits[0].edit.documentChanges.some((c) => c.kind === 'delete'), 'no DeleteFile in the rewind');
  check(same(afterRewind, config.originalTexts), `after the rewind ${JSON.stringify(afterRewind)}`);
  check(same(afterUndo, config.agentTexts), `after undo ${JSON.stringify(afterUndo)}`);
  check(rewind.conflicts.length === 0 && rewind.droppedCheckpoints === 1, `rewind ${JSON.stringify(rewind)}`);
  check(second.stopReason === 'end_turn' && second.text === config.secondAnswer, `second prompt ${JSON.stringify(second)}`);
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);
  return { ok: failures.length === 0, failures, rewind, rewindEdits, afterPrompt, afterRewind, afterUndo, second, exit };
}

run(main, config.timeoutMs);
