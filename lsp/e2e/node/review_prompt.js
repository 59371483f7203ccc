// A real LSP client written by others (vscode-jsonrpc, as VS Code uses it)
// that reviews agent-lsp's edits hunk by hunk: it declares
// capabilities.experimental.agentReview, answers agent/review with the
// configured decision, and types into the document while the review is
// open, as a user would.
//
//   node review_prompt.js <config.json>
//
// The script prints one JSON summary on stdout and exits non-zero when any
// check failed.
'use strict';

const { run, config, failures, check, startDaemon, stopDaemon, answerApplyEdits, openDocument, configDocument } = require('./client.js');


async function main() {
  const daemon = startDaemon();
  const { conn } = daemon;

  const doc = configDocument();
  const updates = [];
  const popups = [];
  const reviews = [];
  const applyEdits = [];

  conn.onNotification('agent/update', (u) => updates.push(u));
  conn.onRequest('window/showMessageRequest', (params) => {
    popups.push(params);
    return null;
  });
  conn.onRequest('agent/review', async (params) => {
    reviews.push(params);
    if (config.typeDuringReview) {
      // The user types while looking at the review.
      const { range, text } = config.typeDuringReview;
      const contentChanges = doc.apply([{ range, newText: text }]);
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: doc.uri, version: doc.version }, contentChanges,
      });
    }
    return config.reviewAnswer;
  });
  answerApplyEdits(conn, doc, applyEdits);
  conn.listen();

  await openDocument(conn, doc, 'vscode-jsonrpc e2e review', 'go', {
    window: { workDoneProgress: false },
    experimental: { agentReview: true },
  });

  const result = await conn.sendRequest('agent/prompt', { prompt: config.prompt });

  const exit = await stopDaemon(daemon);

  check(result.stopReason === 'end_turn', `stopReason ${result.stopReason} (${result.error || ''})`);
  check(doc.text === config.expectedText, `document text ${JSON.stringify(doc.text)}`);
  check(popups.length === 0, `popups shown to a review client: ${JSON.stringify(popups)}`);
  check(reviews.length === 1, `${reviews.length} agent/review requests`);
  const r = reviews[0] || {};
  check(r.sessionId === result.sessionId && r.toolCallId === config.toolCallId && r.path === config.file &&
    r.uri === doc.uri && typeof r.risk === 'string', `review params ${JSON.stringify(r)}`);
  check(applyEdits.length === 1, `${applyEdits.length} workspace/applyEdit requests`);
  const toolResult = updates.find((u) => u.kind === 'tool_result');
  check(toolResult && toolResult.status === 'completed', `tool_result ${JSON.stringify(toolResult)}`);
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);

  return {
    ok: failures.length === 0, failures, result, documentText: doc.text, documentVersion: doc.version,
    reviews, applyEdits, toolResult, exit,
  };
}

run(main, config.timeoutMs);
