// AgentClient and the helpers that build its requests' params.

import { Methods } from './methods';
import type { Checkpoint, RewindParams, RewindResult } from './checkpoints';
import type { PermissionsParams, PermissionsResult } from './permissions';
import type { CommandInfo, CurrentModel, ModelsResult, SetModelParams } from './models';
import type { CompactResult, Mode, PromptContext, PromptImage, PromptParams, PromptResult, SessionInfo, SessionState, ToolInfo } from './session';
import type { Delivery, QueueItem, QueueParams } from './queue';
import type { TranscriptResult } from './updates';
import type { WireTypes } from './wire';

/** The smallest connection both a LanguageClient and a vscode-jsonrpc MessageConnection provide. */
export interface RpcConnection {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  sendNotification(method: string, params: unknown): Promise<void>;
}

/**
 * AgentClient sends the agent/* requests. The extension wraps its
 * LanguageClient in it; the protocol test wraps a MessageConnection.
 * Every request goes through request(), whose params and result are the
 * method's WireTypes: the types the golden wire test checks.
 */
export class AgentClient {
  constructor(private readonly conn: RpcConnection) {}

  private request<M extends RequestMethod>(method: M, params: WireTypes[M]['params']): Promise<WireTypes[M]['result']> {
    return this.conn.sendRequest<WireTypes[M]['result']>(method, params);
  }

  async newSession(title?: string): Promise<string> {
    const r = await this.request(Methods.newSession, title ? { title } : {});
    return r.sessionId;
  }

  prompt(params: PromptParams): Promise<PromptResult> {
    return this.request(Methods.prompt, params);
  }

  async sessions(): Promise<SessionInfo[]> {
    const r = await this.request(Methods.sessions, {});
    return r.sessions ?? [];
  }

  async tools(): Promise<ToolInfo[]> {
    const r = await this.request(Methods.tools, {});
    return r.tools ?? [];
  }

  compact(sessionId: string, workDoneToken?: string): Promise<CompactResult> {
    return this.request(Methods.compact, workDoneToken ? { sessionId, workDoneToken } : { sessionId });
  }

  async setMode(sessionId: string, mode: Mode): Promise<Mode> {
    const r = await this.request(Methods.setMode, { sessionId, mode });
    return r.mode;
  }

  setModel(params: SetModelParams): Promise<CurrentModel> {
    return this.request(Methods.setModel, params);
  }

  async models(sessionId?: string): Promise<ModelsResult> {
    const r = await this.request(Methods.models, sessionId ? { sessionId } : {});
    return r.current ? { models: r.models ?? [], current: r.current } : { models: r.models ?? [] };
  }

  async commands(): Promise<CommandInfo[]> {
    const r = await this.request(Methods.commands, {});
    return (r.commands ?? []).map((c) => ({ ...c, arguments: c.arguments ?? [] }));
  }

  async session(sessionId: string): Promise<SessionState> {
    const r = await this.request(Methods.session, { sessionId });
    return { ...r, plan: r.plan ?? [] };
  }

  async checkpoints(sessionId: string): Promise<Checkpoint[]> {
    const r = await this.request(Methods.checkpoints, { sessionId });
    return (r.checkpoints ?? []).map((c) => ({ ...c, files: c.files ?? [] }));
  }

  async rewind(params: RewindParams): Promise<RewindResult> {
    const r = await this.request(Methods.rewind, params);
    return { ...r, restored: r.restored ?? [], conflicts: r.conflicts ?? [] };
  }

  /** agent/permissions: the saved rules after removing one or trusting the workspace's file (params empty: just list). */
  async permissions(params: PermissionsParams = {}): Promise<PermissionsResult> {
    const r = await this.request(Methods.permissions, params);
    return { rules: r.rules ?? [], files: (r.files ?? []).map((f) => ({ ...f, errors: f.errors ?? [] })) };
  }

  /** transcript is a session's conversation, or with parentToolCallId the conversation of the subagent that `task` call ran. */
  async transcript(sessionId: string, parentToolCallId?: string): Promise<TranscriptResult> {
    const r = await this.request(Methods.transcript, parentToolCallId ? { sessionId, parentToolCallId } : { sessionId });
    return { ...r, entries: r.entries ?? [], plan: r.plan ?? [] };
  }

  /** queue lists the session's queued and steer messages; with remove or edit it changes one and answers the list after. */
  async queue(params: QueueParams): Promise<QueueItem[]> {
    const r = await this.request(Methods.queue, params);
    return r.items ?? [];
  }

  /**
   * Cancels the session's running prompt (a notification: no answer).
   * Prompts queued with delivery "queue" then run in order, unless
   * dropQueue; prompts sent without a delivery are cancelled too.
   */
  cancel(sessionId: string, dropQueue = false): Promise<void> {
    const params: WireTypes[typeof Methods.cancel]['params'] = dropQueue ? { sessionId, dropQueue } : { sessionId };
    return this.conn.sendNotification(Methods.cancel, params);
  }
}

/** The methods of WireTypes the editor sends as requests (they have a result). */
type RequestMethod = { [M in keyof WireTypes]: WireTypes[M] extends { result: unknown } ? M : never }[keyof WireTypes];

/** promptParams builds agent/prompt's params, leaving out what is not set. */
export function promptParams(
  prompt: string,
  opts: { sessionId?: string; context?: PromptContext; workDoneToken?: string; delivery?: Delivery; images?: PromptImage[] } = {},
): PromptParams {
  const p: PromptParams = { prompt };
  if (opts.images && opts.images.length > 0) p.images = opts.images;
  if (opts.delivery) p.delivery = opts.delivery;
  if (opts.sessionId) p.sessionId = opts.sessionId;
  if (opts.context) p.context = opts.context.range ? { uri: opts.context.uri, range: opts.context.range } : { uri: opts.context.uri };
  if (opts.workDoneToken) p.workDoneToken = opts.workDoneToken;
  return p;
}

let tokenCounter = 0;

/** A fresh work-done progress token for one request of this client. */
export function newProgressToken(prefix = 'agent-lsp-vscode'): string {
  tokenCounter += 1;
  return `${prefix}/${process.pid}/${tokenCounter}`;
}
