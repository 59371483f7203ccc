// Subagents through a real LSP client written by others (vscode-jsonrpc):
// three prompts in one session. "parallel": three task calls whose
// children's progress arrives as agent/update entries with
// parentToolCallId; "edit": a child's edit is asked with agent/approve
// (the child's call id) and lands through workspace/applyEdit; "cancel":
// agent/cancel ends a prompt whose three children wait on the model (the
// Go test writes readyFile once the fake holds the three requests). Then
// agent/transcript opens a child's conversation.
//
//   node subagent_prompt.js <config.json>
'use strict';

const fs = require('fs');
const path = require('path');
const { run, config, failures, check, startDaemon, stopDaemon, answerApplyEdits, openDocument, configDocument } = require('./client.js');

// fileExists resolves once file exists (a change of its directory tells).
function fileExists(file) {
  return new Promise((resolve) => {
    const watcher = fs.watch(path.dirname(file), () => {
      if (fs.existsSync(file)) { watcher.close(); resolve(); }
    });
    if (fs.existsSync(file)) { watcher.close(); resolve(); }
  });
}

async function main() {
  const daemon = startDaemon();
  const { conn } = daemon;
  const doc = configDocument();
  const updates = [];
  const approvals = [];
  conn.onNotification('agent/update', (u) => updates.push(u));
  conn.onRequest('window/showMessageRequest', () => { failures.push('a popup for an approve client'); return null; });
  conn.onRequest('agent/approve', (params) => { approvals.push(params); return { optionId: 'allow_once' }; });
  answerApplyEdits(conn, doc, []);
  conn.listen();
  await openDocument(conn, doc, 'vscode-jsonrpc e2e subagents', 'plaintext', {
    window: { workDoneProgress: false }, experimental: { agentApprove: true },
  });

  const { sessionId } = await conn.sendRequest('agent/newSession', {});
  const out = { sessionId };
  const prompt = (p) => conn.sendRequest('agent/prompt', { sessionId, prompt: p });

  let from = updates.length;
  let res = await prompt(config.prompts.parallel);
  check(res.stopReason === 'end_turn', `parallel: ${res.stopReason} ${res.error || ''}`);
  out.parallel = updates.slice(from);

  from = updates.length;
  res = await prompt(config.prompts.edit);
  check(res.stopReason === 'end_turn', `edit: ${res.stopReason} ${res.error || ''}`);
  out.edit = updates.slice(from);
  out.approvals = approvals.map((a) => ({ toolCallId: a.toolCallId, tool: a.tool, path: a.path, parentToolCallId: a.parentToolCallId }));
  out.documentText = doc.text;

  const answered = prompt(config.prompts.cancel);
  await fileExists(config.readyFile);
  const start = performance.now();
  await conn.sendNotification('agent/cancel', { sessionId });
  res = await answered;
  out.cancel = { stopReason: res.stopReason, ms: performance.now() - start };

  out.transcript = await conn.sendRequest('agent/transcript', { sessionId, parentToolCallId: config.transcriptOf });
  const exit = await stopDaemon(daemon);
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);
  return { ok: failures.length === 0, failures, ...out };
}

run(main, config.timeoutMs);
