// A real LSP client written by others (vscode-jsonrpc, as VS Code uses it)
// driving agent-lsp through one prompt that edits an open document.
//
//   node edit_prompt.js <config.json>
//
// The config (written by the Go test) names the daemon's command line, the
// workspace, the document and what the test expects. The script prints one
// JSON summary on stdout and exits non-zero when any check failed.
'use strict';

const rpc = require('vscode-jsonrpc/node');
const { run, config, failures, check, startDaemon, stopDaemon, answerApplyEdits, openDocument, configDocument } = require('./client.js');


async function main() {
  const daemon = startDaemon();
  const { conn } = daemon;

  const doc = configDocument();
  const updates = [];
  const popups = [];
  const applyEdits = [];
  const progress = {}; // token → kinds in order
  const unhandledProgress = [];

  conn.onNotification('agent/update', (u) => updates.push(u));
  conn.onUnhandledProgress((p) => unhandledProgress.push(p));
  conn.onRequest('window/workDoneProgress/create', (params) => {
    // vscode-jsonrpc routes $/progress by token: register it right here.
    progress[params.token] = [];
    conn.onProgress(new rpc.ProgressType(), params.token, (v) => progress[params.token].push(v.kind));
    return null;
  });
  conn.onRequest('window/showMessageRequest', (params) => {
    popups.push(params);
    const allow = params.actions.find((a) => a.title === config.popupAnswer);
    return allow || null;
  });
  answerApplyEdits(conn, doc, applyEdits);
  conn.listen();

  const init = await openDocument(conn, doc, 'vscode-jsonrpc e2e', 'plaintext', {
    window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
    textDocument: { synchronization: { didSave: true, dynamicRegistration: false } },
  });

  const result = await conn.sendRequest('agent/prompt', { prompt: config.prompt });

  const exit = await stopDaemon(daemon);

  check(init.serverInfo && init.serverInfo.name === 'agent-lsp', `serverInfo ${JSON.stringify(init.serverInfo)}`);
  check(result.stopReason === 'end_turn', `stopReason ${result.stopReason} (${result.error || ''})`);
  check(result.text === config.expectText, `result text ${JSON.stringify(result.text)}`);
  const usage = result.usage || {};
  check(['promptTokens', 'completionTokens', 'cachedTokens'].every((k) => usage[k] === config.expectUsage[k]),
    `usage ${JSON.stringify(result.usage)}`);
  check(doc.text === config.expectedText, `document text ${JSON.stringify(doc.text)}`);
  check(doc.version === 2, `document version ${doc.version}`);
  check(popups.length === 1 && popups[0].message.includes('edit_file'), `popups ${JSON.stringify(popups)}`);
  check(applyEdits.length === 1, `${applyEdits.length} workspace/applyEdit requests`);
  updates.forEach((u, i) => check(u.seq === i + 1 && u.sessionId === result.sessionId, `update ${i}: ${JSON.stringify(u)}`));
  const kinds = updates.map((u) => u.kind);
  const toolResult = updates.find((u) => u.kind === 'tool_result');
  check(toolResult && toolResult.status === 'completed' && toolResult.name === 'edit_file', `tool_result ${JSON.stringify(toolResult)}`);
  const streamed = updates.filter((u) => u.kind === 'text').map((u) => u.text).join('');
  check(streamed === config.expectText, `streamed text ${JSON.stringify(streamed)}`);
  const tokens = Object.keys(progress);
  check(tokens.length === 1 && progress[tokens[0]][0] === 'begin' && progress[tokens[0]].at(-1) === 'end',
    `progress ${JSON.stringify(progress)}`);
  check(unhandledProgress.length === 0, `progress on unknown tokens ${JSON.stringify(unhandledProgress)}`);
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);

  return {
    ok: failures.length === 0, failures, result, documentText: doc.text, documentVersion: doc.version,
    kinds, progress, popups: popups.map((p) => ({ message: p.message, actions: p.actions.map((a) => a.title) })),
    applyEdits, exit,
  };
}

run(main, config.timeoutMs);
