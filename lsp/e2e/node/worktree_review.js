// A real LSP client written by others (vscode-jsonrpc, as VS Code uses it)
// running a session in its own git worktree: agent/newSession {worktree},
// a prompt whose edit lands in the worktree (reviewed, accepted), then
// agent/worktree review, whose agent/review it answers with
// config.worktreeAnswer: what it accepted lands in its open document
// through workspace/applyEdit. The dirty worktree is refused removal
// without force, and removed with it.
//
//   node worktree_review.js <config.json>
//
// The script prints one JSON summary on stdout and exits non-zero when any
// check failed.
'use strict';

const { run, config, failures, check, startDaemon, stopDaemon, answerApplyEdits, openDocument, configDocument } = require('./client.js');

async function main() {
  const daemon = startDaemon();
  const { conn } = daemon;

  const doc = configDocument();
  const reviews = [];
  const applyEdits = [];
  conn.onNotification('agent/update', () => {});
  conn.onRequest('window/showMessageRequest', () => null);
  conn.onRequest('agent/review', async (params) => {
    reviews.push(params);
    return params.tool === 'worktree_review' ? config.worktreeAnswer : { decision: 'accept' };
  });
  answerApplyEdits(conn, doc, applyEdits);
  conn.listen();

  await openDocument(conn, doc, 'vscode-jsonrpc e2e worktree', 'go', {
    window: { workDoneProgress: false },
    experimental: { agentReview: true },
  });

  const made = await conn.sendRequest('agent/newSession', { worktree: config.worktreeName });
  const result = await conn.sendRequest('agent/prompt', { sessionId: made.sessionId, prompt: config.prompt });
  const editsDuringPrompt = applyEdits.length;
  const textAfterPrompt = doc.text;
  const reviewed = await conn.sendRequest('agent/worktree', { sessionId: made.sessionId, action: 'review' });
  let refused = null;
  try {
    await conn.sendRequest('agent/worktree', { sessionId: made.sessionId, action: 'remove' });
  } catch (e) {
    refused = { code: e.code, message: e.message };
  }
  const removed = await conn.sendRequest('agent/worktree', { sessionId: made.sessionId, action: 'remove', force: true });

  const exit = await stopDaemon(daemon);

  check(made.worktree && made.worktree.branch === `agent-lsp/${config.worktreeName}`, `agent/newSession ${JSON.stringify(made)}`);
  check(result.stopReason === 'end_turn', `stopReason ${result.stopReason} (${result.error || ''})`);
  check(editsDuringPrompt === 0 && textAfterPrompt === config.originalText, 'the worktree session edited the open document');
  check(doc.text === config.expectedText, `document text ${JSON.stringify(doc.text)}`);
  check(applyEdits.length === 1, `${applyEdits.length} workspace/applyEdit requests`);
  const wr = reviews.find((r) => r.tool === 'worktree_review') || {};
  check(wr.sessionId === made.sessionId && wr.uri === doc.uri && (wr.hunks || []).length === 3, `worktree review ${JSON.stringify(wr)}`);
  check(refused && refused.code === -32602 && /uncommitted changes/.test(refused.message), `remove without force ${JSON.stringify(refused)}`);
  check(removed.path === made.worktree.path, `remove ${JSON.stringify(removed)}`);
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);

  return { ok: failures.length === 0, failures, made, result, reviewed, refused, removed, documentText: doc.text, reviews, applyEdits, exit };
}

run(main, config.timeoutMs);
