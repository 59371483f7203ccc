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

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import * as rpc from 'vscode-jsonrpc/node';
import {
  AgentClient,
  Methods,
  declareAgentRequests,
  newProgressToken,
  promptParams,
  type PlanItem,
  type ApproveParams,
  type PromptResult,
  type ReviewAnswer,
  type ReviewParams,
  type ShowMessageRequestParams,
  type Update,
} from '../protocol';
import { HunkSelection, applyHunks, hunkPickItems, locateHunks, reviewAnswer } from '../logic/review';
import { checkpointItems, rewindOptionItems, rewindParams, rewindSummary } from '../logic/checkpoints';
import { completeAt } from '../logic/completion';
import { planRows } from '../logic/plan';
import { initializationOptions, readSettings } from '../logic/settings';
import { answerApprove, approvalDetail, canShowDiff, proposedText } from '../logic/approval';
import { Transcript } from '../logic/transcript';
import { renderPage, renderTranscript } from '../logic/render';
import { editedUris } from '../logic/workspaceEdit';

interface Config {
  command: string[];
  root: string;
  file: string;
  originalText: string;
  expectedText: string;
  selectionLine: number;
  settings: Record<string, unknown>;
  editPrompt: string;
  expectAnswer: string;
  stallPrompt: string;
  resumePrompt: string;
  expectResumeAnswer: string;
  /** The control surface: a prompt in plan mode whose todo_write calls send these plans, then one in ask mode with mentions. */
  planPrompt: string;
  expectPlans: PlanItem[][];
  askPrompt: string;
  /** The mentions of askPrompt as "path:status". */
  expectMentions: string[];
  htmlOut?: string;
  timeoutMs: number;
  /** The review: a file whose edit has three hunks, the prompt, what the pick keeps and the feedback. */
  reviewFile: string;
  reviewOriginal: string;
  /** The text with every hunk (the diff's right side) and with the kept ones (the buffer after the edit). */
  reviewProposed: string;
  reviewExpected: string;
  reviewPrompt: string;
  reviewToolCallId: string;
  reviewKeep: number[];
  reviewFeedback: string;
}

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Config;
const failures: string[] = [];
const check = (ok: boolean, what: string): void => {
  if (!ok) failures.push(what);
};

interface Position { line: number; character: number }
interface TextEdit { range: { start: Position; end: Position }; newText: string }

/** A document as the editor holds it: a JS string is UTF-16, as LSP positions count. */
class Document {
  version = 1;
  saved: string;
  constructor(readonly uri: string, readonly file: string, public text: string) {
    this.saved = text;
  }

  offsetAt(pos: Position): number {
    let offset = 0;
    for (let line = 0; line < pos.line; line++) {
      const nl = this.text.indexOf('\n', offset);
      if (nl < 0) return this.text.length;
      offset = nl + 1;
    }
    return offset + pos.character;
  }

  apply(edits: TextEdit[]): Array<{ range: TextEdit['range']; text: string }> {
    const sorted = edits
      .map((e, i) => ({ e, i, start: this.offsetAt(e.range.start), end: this.offsetAt(e.range.end) }))
      .sort((a, b) => b.start - a.start || b.i - a.i);
    for (const s of sorted) this.text = this.text.slice(0, s.start) + s.e.newText + this.text.slice(s.end);
    this.version++;
    return sorted.map((s) => ({ range: s.e.range, text: s.e.newText }));
  }
}

/** One daemon process and its connection, wired as the extension wires its client. */
class Daemon {
  readonly child: ChildProcess;
  readonly conn: rpc.MessageConnection;
  readonly agent: AgentClient;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  readonly updates: Update[] = [];
  /** agent/approve requests, the "Show diff" text the client built for each, and its answer. */
  readonly approvals: Array<{ params: ApproveParams; detail: string; proposed?: string; proposedError?: string; answer: string }> = [];
  /** Any window/showMessageRequest: none is expected. */
  readonly popups: ShowMessageRequestParams[] = [];
  /** agent/review requests, the diff's right side the client built for each, and its answer. */
  readonly reviews: Array<{ params: ReviewParams; proposed?: string; kept?: string; error?: string; answer: ReviewAnswer }> = [];
  readonly applyEdits: unknown[] = [];
  readonly saves: string[] = [];
  readonly progress = new Map<string, string[]>();
  readonly onUpdate: Array<(u: Update) => void> = [];

  constructor(readonly doc: Document, readonly review = false) {
    this.child = spawn(config.command[0], config.command.slice(1), { cwd: config.root, stdio: ['pipe', 'pipe', 'inherit'] });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    this.conn = rpc.createMessageConnection(new rpc.StreamMessageReader(this.child.stdout!), new rpc.StreamMessageWriter(this.child.stdin!));
    this.agent = new AgentClient({
      sendRequest: <R>(method: string, params: unknown) => this.conn.sendRequest<R>(method, params),
      sendNotification: (method: string, params: unknown) => this.conn.sendNotification(method, params),
    });
    this.conn.onNotification(Methods.update, (u: Update) => {
      this.updates.push(u);
      for (const f of this.onUpdate) f(u);
    });
    this.conn.onRequest(Methods.showMessageRequest, (params: ShowMessageRequestParams) => {
      this.popups.push(params);
      return null;
    });
    this.conn.onRequest(Methods.approve, (params: ApproveParams) =>
      answerApprove(params, async (p) => {
        // What ApprovalUi shows: the dialog's detail, and "Show diff": the
        // request's hunks applied to the buffer. Then Allow.
        const entry: Daemon['approvals'][number] = { params: p, detail: approvalDetail(p), answer: 'allow_once' };
        try {
          if (canShowDiff(p)) entry.proposed = proposedText(this.doc.text, p);
        } catch (err) {
          entry.proposedError = String(err);
        }
        this.approvals.push(entry);
        return entry.answer;
      }),
    );
    // What ReviewUi does, without the UI: the diff's right side with every
    // hunk, the pick's rows, the hunks the user keeps, the feedback box.
    this.conn.onRequest(Methods.review, (params: ReviewParams): ReviewAnswer => {
      const entry: Daemon['reviews'][number] = { params, answer: { decision: 'reject' } };
      try {
        const located = locateHunks(this.doc.text, params.hunks);
        entry.proposed = applyHunks(this.doc.text, located);
        const selection = new HunkSelection(params.hunks);
        selection.replace(hunkPickItems(params.hunks).filter((i) => config.reviewKeep.includes(i.id)).map((i) => i.id));
        entry.kept = applyHunks(this.doc.text, located, selection.ids());
        entry.answer = reviewAnswer(params.hunks, selection.ids(), config.reviewFeedback);
      } catch (err) {
        entry.error = String(err);
      }
      this.reviews.push(entry);
      return entry.answer;
    });
    this.conn.onRequest('workspace/applyEdit', async (params: { label?: string; edit: { documentChanges?: Array<{ textDocument: { uri: string; version: number | null }; edits: TextEdit[] }> } }) => {
      this.applyEdits.push(params);
      for (const change of params.edit.documentChanges ?? []) {
        if (change.textDocument.uri !== this.doc.uri || change.textDocument.version !== this.doc.version) {
          return { applied: false, failureReason: `unexpected change ${JSON.stringify(change)}` };
        }
      }
      for (const change of params.edit.documentChanges ?? []) {
        const contentChanges = this.doc.apply(change.edits);
        await this.conn.sendNotification('textDocument/didChange', { textDocument: { uri: this.doc.uri, version: this.doc.version }, contentChanges });
      }
      // agentLsp.autoSave: the extension saves what the edit touched once it is applied.
      for (const uri of editedUris(params.edit)) {
        if (uri !== this.doc.uri) continue;
        fs.writeFileSync(this.doc.file, this.doc.text);
        this.doc.saved = this.doc.text;
        this.saves.push(uri);
        await this.conn.sendNotification('textDocument/didSave', { textDocument: { uri } });
      }
      return { applied: true };
    });
    this.conn.listen();
  }

  async initialize(): Promise<{ serverInfo?: { name: string } }> {
    const rootUri = pathToFileURL(config.root).href;
    const settings = readSettings((k) => config.settings[k]);
    const capabilities: { experimental?: unknown; [k: string]: unknown } = {
      workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] } },
      window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: true } } },
      textDocument: { synchronization: { didSave: true, dynamicRegistration: true } },
    };
    // The extension's AgentRequestsFeature fills the capabilities the same
    // way; the first daemons declare agent/approve alone.
    if (this.review) declareAgentRequests(capabilities);
    else capabilities.experimental = { agentApprove: true };
    const init = await this.conn.sendRequest<{ serverInfo?: { name: string } }>('initialize', {
      processId: process.pid,
      clientInfo: { name: 'agent-lsp vscode protocol test' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(config.root) }],
      initializationOptions: initializationOptions(settings),
      capabilities,
    });
    await this.conn.sendNotification('initialized', {});
    await this.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: this.doc.uri, languageId: 'go', version: this.doc.version, text: this.doc.text },
    });
    return init;
  }

  /** prompt sends agent/prompt with a fresh progress token, as Session.ask does. */
  async prompt(prompt: string, sessionId: string, context?: { uri: string; range?: TextEdit['range'] }): Promise<{ result: PromptResult; progress: string[] }> {
    const token = newProgressToken();
    const kinds: string[] = [];
    this.progress.set(token, kinds);
    const sub = this.conn.onProgress(new rpc.ProgressType<{ kind: string }>(), token, (v) => {
      kinds.push(v.kind);
    });
    try {
      const result = await this.agent.prompt(promptParams(prompt, { sessionId, context, workDoneToken: token }));
      return { result, progress: kinds };
    } finally {
      sub.dispose();
    }
  }

  async shutdown(): Promise<{ code: number | null; signal: string | null }> {
    await this.conn.sendRequest('shutdown');
    await this.conn.sendNotification('exit');
    return this.waitExit();
  }

  async waitExit(): Promise<{ code: number | null; signal: string | null }> {
    const exit = await Promise.race([
      this.exited,
      new Promise<{ code: null; signal: string }>((resolve) => setTimeout(() => resolve({ code: null, signal: 'did not exit within 5s' }), 5000)),
    ]);
    this.conn.dispose();
    if (exit.code === null && exit.signal === 'did not exit within 5s') this.child.kill('SIGKILL');
    return exit;
  }
}

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

/**
 * reviewAndRewind runs a daemon for a client declaring agentReview: an
 * edit with three hunks is answered as the review UI answers it (keep
 * config.reviewKeep, feedback), then "agent-lsp: Rewind…" puts the file back.
 */
async function reviewAndRewind(): Promise<Record<string, unknown>> {
  const file = path.join(config.root, config.reviewFile);
  const doc = new Document(pathToFileURL(file).href, file, config.reviewOriginal);
  const c = new Daemon(doc, true);
  await c.initialize();
  const sessionId = await c.agent.newSession('vscode review');
  const reviewed = await c.prompt(config.reviewPrompt, sessionId);
  check(reviewed.result.stopReason === 'end_turn', `review prompt: ${reviewed.result.stopReason} (${reviewed.result.error ?? ''})`);
  check(c.popups.length === 0 && c.approvals.length === 0, `a review client got ${c.popups.length} popups and ${c.approvals.length} agent/approve for its edit`);
  check(c.reviews.length === 1, `${c.reviews.length} agent/review requests`);
  const r = c.reviews[0];
  check(r?.params.sessionId === sessionId && r.params.toolCallId === config.reviewToolCallId && r.params.path === config.reviewFile &&
    r.params.uri === doc.uri && r.params.tool === 'edit_file' && r.params.hunks.length === 3, `review params ${JSON.stringify(r?.params)}`);
  check(r?.proposed === config.reviewProposed, `the diff's right side ${JSON.stringify(r?.proposed)} (${r?.error ?? ''})`);
  check(r?.kept === config.reviewExpected, `the kept hunks make ${JSON.stringify(r?.kept)}`);
  check(JSON.stringify(r?.answer) === JSON.stringify({ decision: 'partial', acceptedHunks: config.reviewKeep, feedback: config.reviewFeedback }),
    `review answer ${JSON.stringify(r?.answer)}`);
  check(doc.text === config.reviewExpected, `document after the review ${JSON.stringify(doc.text)}`);
  check(c.applyEdits.length === 1, `${c.applyEdits.length} applyEdits after the review`);
  const result = c.updates.find((u) => u.kind === 'tool_result' && u.toolCallId === config.reviewToolCallId);
  check(result?.kind === 'tool_result' && result.status === 'completed' && result.output.includes('NOT applied: hunk 2') &&
    result.output.includes(`User feedback: ${config.reviewFeedback}`), `review tool_result ${JSON.stringify(result)}`);
  const afterReview = doc.text;

  // agent-lsp: Rewind…: the newest checkpoint, both options as the pick offers them.
  const checkpoints = await c.agent.checkpoints(sessionId);
  check(checkpoints.length === 1 && JSON.stringify(checkpoints[0].files) === JSON.stringify([config.reviewFile]) &&
    checkpoints[0].prompt === config.reviewPrompt, `checkpoints ${JSON.stringify(checkpoints)}`);
  const point = checkpointItems(checkpoints)[0];
  const params = rewindParams(sessionId, point.checkpointId, rewindOptionItems().filter((o) => o.picked).map((o) => o.option));
  check(params?.restoreFiles === true && params.truncateConversation === true, `rewind params ${JSON.stringify(params)}`);
  const rewound = params ? await c.agent.rewind(params) : undefined;
  check(JSON.stringify(rewound?.restored) === JSON.stringify([{ path: config.reviewFile, action: 'restored' }]) &&
    rewound?.conflicts.length === 0 && (rewound.droppedMessages ?? 0) > 0 && rewound.droppedCheckpoints === 1, `rewind ${JSON.stringify(rewound)}`);
  check(doc.text === config.reviewOriginal, `document after the rewind ${JSON.stringify(doc.text)}`);
  check(c.applyEdits.length === 2 && JSON.stringify(c.applyEdits[1]).includes('"label":"agent: rewind'), `rewind applyEdit ${JSON.stringify(c.applyEdits[1])}`);
  check((await c.agent.checkpoints(sessionId)).length === 0, 'checkpoints left after the rewind');
  const exit = await c.shutdown();
  check(exit.code === 0, `daemon C exit ${JSON.stringify(exit)}`);
  return {
    hunks: r?.params.hunks.map((h) => ({ id: h.id, startLine: h.startLine, endLine: h.endLine })),
    answer: r?.answer, toolResult: result?.kind === 'tool_result' ? result.output : undefined, afterReview,
    afterRewind: doc.text, rewindMessage: rewound ? rewindSummary(rewound).message : undefined,
  };
}

/**
 * controlSurface steers the session as the extension's commands and chat
 * input do: the slash commands the input completes, the model presets of
 * "agent-lsp: Switch Model", "agent-lsp: Set Mode" plan then ask, the plan
 * updates the Plan view draws, mentions, and a slash command sent as a prompt.
 */
async function controlSurface(d: Daemon, sessionId: string, transcript: Transcript): Promise<Record<string, unknown>> {
  const commands = await d.agent.commands();
  const names = commands.map((c) => c.name);
  check(['/compact', '/clear', '/mode', '/model'].every((n) => names.includes(n)) && commands.every((c) => c.source === 'builtin'),
    `commands ${JSON.stringify(commands)}`);
  const typed = await completeAt('/mo', 3, { commands: async () => commands, files: async () => [] });
  check(JSON.stringify(typed?.items.map((i) => i.insert)) === JSON.stringify(['/mode ', '/model ']), `"/mo" completes to ${JSON.stringify(typed)}`);

  const { models, current } = await d.agent.models(sessionId);
  const presetIds = models.map((m) => m.id);
  check(['deepseek', 'deepseek-anthropic', 'openai', 'anthropic', 'openrouter', 'ollama'].every((id) => presetIds.includes(id)), `presets ${JSON.stringify(presetIds)}`);
  check(current?.provider === 'openai' && current.model === 'deepseek-flash', `current model ${JSON.stringify(current)}`);

  const seen = (kind: string, from: number): Update[] => d.updates.slice(from).filter((u) => u.kind === kind);

  // agent-lsp: Set Mode → plan, then a prompt whose todo_write calls stream the plan.
  let from = d.updates.length;
  check(await d.agent.setMode(sessionId, 'plan') === 'plan', 'setMode plan');
  check(JSON.stringify(seen('mode', from).map((u) => u.kind === 'mode' && u.mode)) === '["plan"]', `mode updates ${JSON.stringify(seen('mode', from))}`);
  from = d.updates.length;
  transcript.addPrompt(config.planPrompt);
  const planned = await d.prompt(config.planPrompt, sessionId);
  transcript.finish(planned.result);
  check(planned.result.stopReason === 'end_turn', `plan prompt: ${planned.result.stopReason} (${planned.result.error ?? ''})`);
  const plans = seen('plan', from).map((u) => (u.kind === 'plan' ? u.items : []));
  check(JSON.stringify(plans) === JSON.stringify(config.expectPlans), `plan updates ${JSON.stringify(plans)}`);
  // Each plan update comes between its todo_write call and result.
  const order = d.updates.slice(from).filter((u) => u.kind === 'plan' || ((u.kind === 'tool_call' || u.kind === 'tool_result') && u.name === 'todo_write')).map((u) => u.kind);
  check(order.join(' ') === 'tool_call plan tool_result tool_call plan tool_result', `todo_write order ${order.join(' ')}`);
  const state = await d.agent.session(sessionId);
  check(state.mode === 'plan' && JSON.stringify(state.plan) === JSON.stringify(plans[plans.length - 1]), `agent/session ${JSON.stringify(state)}`);
  const rows = planRows(state.plan).map((r) => `${r.icon} ${r.label}`);

  // agent-lsp: Set Mode → ask, then a prompt with mentions; the model writes anyway.
  check(await d.agent.setMode(sessionId, 'ask') === 'ask', 'setMode ask');
  from = d.updates.length;
  transcript.addPrompt(config.askPrompt);
  const asked = await d.prompt(config.askPrompt, sessionId);
  transcript.finish(asked.result);
  check(asked.result.stopReason === 'end_turn', `ask prompt: ${asked.result.stopReason} (${asked.result.error ?? ''})`);
  const mentions = seen('mention', from).map((u) => (u.kind === 'mention' ? `${u.path}:${u.status}` : ''));
  check(JSON.stringify(mentions) === JSON.stringify(config.expectMentions), `mention updates ${JSON.stringify(mentions)}`);
  check(JSON.stringify((asked.result.mentions ?? []).map((m) => `${m.path}:${m.status}`)) === JSON.stringify(config.expectMentions),
    `prompt mentions ${JSON.stringify(asked.result.mentions)}`);
  const refused = seen('tool_result', from).find((u) => u.kind === 'tool_result' && u.name === 'write_file');
  check(refused?.kind === 'tool_result' && refused.status === 'denied' && refused.output.includes('not available in ask mode'), `write_file in ask mode: ${JSON.stringify(refused)}`);
  check(d.popups.length === 0 && d.approvals.length === 0 && d.applyEdits.length === 0,
    `ask mode: ${d.popups.length} popups, ${d.approvals.length} approvals, ${d.applyEdits.length} edits`);

  // A slash command typed in the chat: no model call, a mode update, the answer in the result.
  from = d.updates.length;
  transcript.addPrompt('/mode default');
  const slash = await d.prompt('/mode default', sessionId);
  transcript.finish(slash.result);
  check(slash.result.command === '/mode' && slash.result.stopReason === 'end_turn', `/mode default: ${JSON.stringify(slash.result)}`);
  check(JSON.stringify(seen('mode', from).map((u) => u.kind === 'mode' && u.mode)) === '["default"]', `/mode updates ${JSON.stringify(seen('mode', from))}`);
  check((await d.agent.session(sessionId)).mode === 'default', 'mode after /mode default');
  return { commands: names, planRows: rows, mentions };
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
