// A daemon of the protocol test: the agent-lsp process and its connection,
// answering agent/approve, agent/review, the popup and workspace/applyEdit
// with the extension's own modules.

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
  type ApproveParams,
  type PromptResult,
  type ReviewAnswer,
  type ReviewParams,
  type ShowMessageRequestParams,
  type Update,
} from '../protocol';
import { HunkSelection, applyHunks, hunkPickItems, locateHunks, reviewAnswer } from '../logic/review';
import { initializationOptions, readSettings } from '../logic/settings';
import { answerApprove, approvalDetail, canShowDiff, proposedText } from '../logic/approval';
import { editedUris } from '../logic/workspaceEdit';
import { config } from './config';
import type { Document, TextEdit } from './document';

/** One daemon process and its connection, wired as the extension wires its client. */
export class Daemon {
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
    const settings = readSettings((k) => (k in config.settings ? { globalValue: config.settings[k] } : {})).settings;
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
