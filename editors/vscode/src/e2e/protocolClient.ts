// The protocol test's client (run by e2e/protocol_test.go): it plays the
// request sequence of the extension against the real daemon over
// vscode-jsonrpc, with the extension's own modules: the settings mapping
// for initializationOptions, AgentClient for the agent/* requests,
// answerApprove and the "Show diff" text built from agent/approve's hunks
// (the first two daemons declare experimental.agentApprove only, so the
// edit comes as agent/approve, not agent/review), the
// transcript for the updates, the plan view model, the completion of the
// chat input; then the control surface: agent/commands, agent/models,
// agent/setMode (plan, ask), the plan updates, @mentions, a slash command;
// then a third daemon declaring agentReview and agentApprove as the
// extension does (declareAgentRequests): a three-hunk edit
// reviewed with the review module (hunks 1 and 3 kept, 2 rejected with
// feedback) and a rewind (agent/checkpoints, agent/rewind) as "agent-lsp:
// Rewind…" makes it.
//
//   node out/e2e/protocolClient.js <config.json>
//
// It prints one JSON summary on stdout and exits non-zero when a check failed.
//
// This file is the entry and the conversation (daemons A and B); the steps
// of the other areas are controlSurface.ts and reviewAndRewind.ts, the
// daemon as the extension wires it daemon.ts, the editor's buffer
// document.ts, the configuration and the checks config.ts.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Transcript } from '../logic/transcript';
import { renderPage, renderTranscript } from '../logic/render';
import { check, config, failures } from './config';
import { controlSurface } from './controlSurface';
import { Daemon } from './daemon';
import { Document } from './document';
import { reviewAndRewind } from './reviewAndRewind';

async function main(): Promise<Record<string, unknown>> {
  const file = path.join(config.root, config.file);
  const doc = new Document(pathToFileURL(file).href, file, config.originalText);
  const transcript = new Transcript();

  // Daemon A: the whole life of a conversation.
  const a = new Daemon(doc);
  const init = await a.initialize();
  check(init.serverInfo?.name === 'agent-lsp', `serverInfo ${JSON.stringify(init.serverInfo)}`);
  const sessionId = await a.agent.newSession('vscode e2e');
  check(typeof sessionId === 'string' && sessionId !== '', `newSession ${sessionId}`);
  a.onUpdate.push((u) => transcript.apply(u));

  const line = doc.text.split('\n')[config.selectionLine];
  const range = { start: { line: config.selectionLine, character: 0 }, end: { line: config.selectionLine, character: line.length } };
  transcript.addPrompt(config.editPrompt, `${config.file}:${config.selectionLine + 1}`);
  const edit = await a.prompt(config.editPrompt, sessionId, { uri: doc.uri, range });
  transcript.finish(edit.result);
  check(edit.result.stopReason === 'end_turn', `edit prompt: stopReason ${edit.result.stopReason} (${edit.result.error ?? ''})`);
  check(edit.result.sessionId === sessionId, `edit prompt: session ${edit.result.sessionId}`);
  check(edit.result.text === config.expectAnswer, `edit prompt: text ${JSON.stringify(edit.result.text)}`);
  check(edit.progress[0] === 'begin' && edit.progress[edit.progress.length - 1] === 'end', `edit prompt: progress ${JSON.stringify(edit.progress)}`);
  check(a.popups.length === 0, `popups shown to an agentApprove client: ${JSON.stringify(a.popups)}`);
  check(a.approvals.length === 1, `${a.approvals.length} agent/approve requests`);
  const approval = a.approvals[0];
  check(approval?.params.sessionId === sessionId && approval.params.toolCallId === 'call_edit' && approval.params.tool === 'edit_file' &&
    approval.params.path === config.file && approval.params.uri === doc.uri && ['low', 'medium', 'high'].includes(approval.params.risk) &&
    approval.params.hunks?.length === 1 && approval.params.options.some((o) => o.id === 'allow_once'),
    `agent/approve params ${JSON.stringify(approval?.params)}`);
  check(approval?.detail.startsWith('@@ ') === true, `the dialog's detail ${JSON.stringify(approval?.detail)}`);
  check(approval?.proposed === config.expectedText, `"Show diff" proposed ${JSON.stringify(approval?.proposed)} (${approval?.proposedError ?? ''})`);
  check(doc.text === config.expectedText, `document ${JSON.stringify(doc.text)}`);
  check(a.saves.length === 1, `${a.saves.length} saves after the applied edit`);
  a.updates.forEach((u, i) => check(u.seq === i + 1 && u.sessionId === sessionId, `update ${i}: ${JSON.stringify(u)}`));
  const card = transcript.entries.find((e) => e.kind === 'tool');
  check(card?.kind === 'tool' && card.status === 'completed' && card.name === 'edit_file', `tool card ${JSON.stringify(card)}`);
  check(transcript.totals !== undefined && transcript.totals.promptTokens > 0, `totals ${JSON.stringify(transcript.totals)}`);

  const sessions = await a.agent.sessions();
  check(sessions.some((s) => s.sessionId === sessionId && s.title === 'vscode e2e'), `sessions ${JSON.stringify(sessions)}`);
  const tools = await a.agent.tools();
  const toolNames = tools.map((t) => t.name);
  check(['read_file', 'edit_file', 'write_file', 'run_bash'].every((n) => toolNames.includes(n)), `tools ${JSON.stringify(toolNames)}`);

  // Cancel mid-stream: the model stalls after its first words; the first
  // text update of this prompt triggers agent/cancel, as the Cancel command.
  transcript.addPrompt(config.stallPrompt);
  const seqBefore = a.updates.length;
  const firstText = new Promise<void>((resolve) => a.onUpdate.push((u) => {
    if (u.kind === 'text' && u.seq > seqBefore) resolve();
  }));
  const stalled = a.prompt(config.stallPrompt, sessionId);
  // A prompt that ends without any text (a failure) must not hang the test.
  await Promise.race([firstText, stalled]);
  const cancelAt = Date.now();
  await a.agent.cancel(sessionId);
  const cancelled = await stalled;
  const cancelMs = Date.now() - cancelAt;
  transcript.finish(cancelled.result);
  check(cancelled.result.stopReason === 'cancelled', `stalled prompt: stopReason ${cancelled.result.stopReason}`);
  check(cancelMs < 2000, `cancel took ${cancelMs} ms`);

  // The daemon crashes (SIGKILL): daemon B resumes the session by its id,
  // as the extension does after languageclient restarts the server.
  a.child.kill('SIGKILL');
  const crash = await a.waitExit();
  check(crash.signal === 'SIGKILL', `crash ${JSON.stringify(crash)}`);
  transcript.addNotice('agent-lsp stopped unexpectedly and was restarted; the conversation resumes.');

  const b = new Daemon(doc);
  await b.initialize();
  b.onUpdate.push((u) => transcript.apply(u));
  transcript.addPrompt(config.resumePrompt);
  const resumed = await b.prompt(config.resumePrompt, sessionId);
  transcript.finish(resumed.result);
  check(resumed.result.stopReason === 'end_turn' && resumed.result.sessionId === sessionId,
    `resumed prompt: ${resumed.result.stopReason} in ${resumed.result.sessionId} (${resumed.result.error ?? ''})`);
  check(resumed.result.text === config.expectResumeAnswer, `resumed prompt: text ${JSON.stringify(resumed.result.text)}`);
  check(b.updates.length > 0 && b.updates[0].seq === 1, `resumed updates ${JSON.stringify(b.updates.slice(0, 1))}`);
  const control = await controlSurface(b, sessionId, transcript);

  const exit = await b.shutdown();
  check(exit.code === 0, `daemon B exit ${JSON.stringify(exit)}`);
  const review = await reviewAndRewind();

  if (config.htmlOut) {
    fs.writeFileSync(config.htmlOut, renderPage({
      nonce: 'screenshot', cspSource: '', transcriptHtml: renderTranscript(transcript.entries),
      status: 'agent-lsp · session ' + sessionId,
    }));
  }
  return {
    ok: failures.length === 0, failures, sessionId, documentText: doc.text, savedText: doc.saved,
    kinds: a.updates.map((u) => u.kind), resumedKinds: b.updates.map((u) => u.kind),
    approvals: a.approvals.map((p) => ({ tool: p.params.tool, risk: p.params.risk, path: p.params.path, summary: p.params.summary })),
    applyEdits: a.applyEdits, cancelMs, exit, entries: transcript.entries.map((e) => e.kind), ...control, review,
  };
}

const watchdog = setTimeout(() => {
  process.stdout.write(JSON.stringify({ ok: false, failures: [...failures, 'watchdog: no end within the time limit'] }) + '\n');
  process.exit(3);
}, config.timeoutMs);

main().then(
  (summary) => {
    clearTimeout(watchdog);
    process.stdout.write(JSON.stringify(summary) + '\n');
    process.exit(summary.ok ? 0 : 1);
  },
  (err: unknown) => {
    clearTimeout(watchdog);
    process.stdout.write(JSON.stringify({ ok: false, failures: [...failures, String(err instanceof Error ? err.stack : err)] }) + '\n');
    process.exit(2);
  },
);
