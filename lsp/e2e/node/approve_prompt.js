// A real LSP client written by others (vscode-jsonrpc, as VS Code uses it)
// that answers agent-lsp's structured approvals: it declares
// capabilities.experimental.agentApprove (and not agentReview), answers
// agent/approve with the option configured for each tool call, and never
// expects the window/showMessageRequest popup.
//
//   node approve_prompt.js <config.json>
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
  const approvals = [];

  conn.onNotification('agent/update', (u) => updates.push(u));
  conn.onRequest('window/showMessageRequest', (params) => {
    popups.push(params);
    return null;
  });
  conn.onRequest('agent/approve', (params) => {
    approvals.push(params);
    const optionId = config.answers[params.toolCallId];
    return optionId ? { optionId } : null;
  });
  answerApplyEdits(conn, doc, []);
  conn.listen();

  await openDocument(conn, doc, 'vscode-jsonrpc e2e approve', 'go', {
    window: { workDoneProgress: false },
    experimental: { agentApprove: true },
  });

  const result = await conn.sendRequest('agent/prompt', { prompt: config.prompt });

  const exit = await stopDaemon(daemon);

  check(result.stopReason === 'end_turn', `stopReason ${result.stopReason} (${result.error || ''})`);
  check(doc.text === config.expectedText, `document text ${JSON.stringify(doc.text)}`);
  check(popups.length === 0, `popups shown to an approve client: ${JSON.stringify(popups)}`);
  for (const a of approvals) {
    check(a.sessionId === result.sessionId && Array.isArray(a.reasons) && Array.isArray(a.options) &&
      ['low', 'medium', 'high'].includes(a.risk), `approve params ${JSON.stringify(a)}`);
  }
  const toolResults = updates.filter((u) => u.kind === 'tool_result');
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);

  return {
    ok: failures.length === 0, failures, result, documentText: doc.text, approvals, toolResults, exit,
  };
}

run(main, config.timeoutMs);
