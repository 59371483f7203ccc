// The agent-lsp editor protocol (docs/protocol.md) as the extension speaks
// it: the wire types, the method names and the requests it sends. It never
// imports vscode, so the protocol test (e2e/) drives the real daemon with
// exactly these requests over a plain vscode-jsonrpc connection.

export const Methods = {
  newSession: 'agent/newSession',
  prompt: 'agent/prompt',
  sessions: 'agent/sessions',
  tools: 'agent/tools',
  compact: 'agent/compact',
  cancel: 'agent/cancel',
  update: 'agent/update',
  setMode: 'agent/setMode',
  setModel: 'agent/setModel',
  models: 'agent/models',
  commands: 'agent/commands',
  session: 'agent/session',
  review: 'agent/review',
  approve: 'agent/approve',
  checkpoints: 'agent/checkpoints',
  rewind: 'agent/rewind',
  transcript: 'agent/transcript',
  showMessageRequest: 'window/showMessageRequest',
} as const;

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** What a prompt is about: a file, or a selection in it. */
export interface PromptContext {
  uri: string;
  range?: Range;
}

/** The session modes (docs/protocol.md, Modes), least power first. */
export const modes = ['ask', 'plan', 'default', 'auto-edit'] as const;
export type Mode = (typeof modes)[number];

export type PlanStatus = 'pending' | 'in_progress' | 'completed';

/** One item of the session's plan (the todo_write tool's list). */
export interface PlanItem {
  content: string;
  status: PlanStatus;
}

export type MentionStatus = 'attached' | 'missing' | 'refused' | 'failed';

/** What became of one @mention or context file of a prompt. */
export interface MentionReport {
  path: string;
  startLine?: number;
  endLine?: number;
  status: MentionStatus;
  message?: string;
}

export interface CommandArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** One slash command of agent/commands; name carries its slash ("/mode"). */
export interface CommandInfo {
  name: string;
  description: string;
  arguments: CommandArgument[];
  source: string;
}

export interface ModelPrices {
  input: number;
  cachedInput: number;
  output: number;
  peak?: ModelPrices;
}

/** One preset of agent/models. */
export interface ModelPreset {
  id: string;
  provider: string;
  model: string;
  baseURL: string;
  apiKeyEnv: string;
  contextWindow?: number;
  prices?: ModelPrices;
  source?: string;
}

/** A session's model: its dialect, name and endpoint. */
export interface CurrentModel {
  provider: string;
  model: string;
  baseURL: string;
}

export interface ModelsResult {
  models: ModelPreset[];
  current?: CurrentModel;
}

/** agent/setModel's params: a preset, or a model (on a provider). */
export type SetModelParams =
  | { sessionId: string; preset: string }
  | { sessionId: string; model: string; provider?: string; baseURL?: string; apiKeyEnv?: string };

/** agent/session's answer: what a view needs to draw a session it (re)opens. */
export interface SessionState extends CurrentModel {
  sessionId: string;
  title: string;
  mode: Mode;
  plan: PlanItem[];
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

export interface Totals extends Usage {
  cost: number;
}

export interface PromptParams {
  sessionId?: string;
  prompt: string;
  context?: PromptContext;
  workDoneToken?: string;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'max_rounds' | 'cancelled' | 'error';

export interface PromptResult {
  sessionId: string;
  stopReason: StopReason;
  text: string;
  usage: Usage;
  error?: string;
  mentions?: MentionReport[];
  /** The slash command the prompt ran ("/mode"), when it was one. */
  command?: string;
}

export interface SessionInfo {
  sessionId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface ToolInfo {
  name: string;
  description: string;
  source: string;
}

export interface CompactResult {
  beforeTokens: number;
  afterTokens: number;
  elided: number;
  summarised: number;
  error?: string;
}

interface UpdateBase {
  sessionId: string;
  seq: number;
}

export type ToolStatus = 'completed' | 'failed' | 'denied';

/** One agent/update notification, by kind. */
export type Update =
  | (UpdateBase & { kind: 'text' | 'reasoning'; text: string })
  | (UpdateBase & { kind: 'tool_call'; toolCallId: string; name: string; arguments: unknown })
  | (UpdateBase & { kind: 'tool_result'; toolCallId: string; name: string; status: ToolStatus; output: string })
  | (UpdateBase & { kind: 'round_end'; stopReason: string; usage: Usage; cost: number; totals: Totals })
  | (UpdateBase & { kind: 'compacted'; beforeTokens: number; afterTokens: number; cost: number; totals: Totals })
  | (UpdateBase & { kind: 'error'; message: string })
  | (UpdateBase & { kind: 'plan'; items: PlanItem[] })
  | (UpdateBase & { kind: 'mode'; mode: Mode })
  | (UpdateBase & { kind: 'model' } & CurrentModel)
  | (UpdateBase & { kind: 'mention' } & MentionReport);

/**
 * One entry of agent/transcript: a user prompt as the model received it
 * (attachments included; the checkpoint made before it, when known) or
 * what the matching agent/update kind carried, in the order it happened.
 */
export type TranscriptEntry =
  | { kind: 'user'; text: string; checkpointId?: string }
  | { kind: 'text' | 'reasoning'; text: string }
  | { kind: 'tool_call'; toolCallId: string; name: string; arguments: unknown }
  | { kind: 'tool_result'; toolCallId: string; name: string; status: ToolStatus; output: string }
  /** The summary that replaced the conversation before it (whose messages are not entries). */
  | { kind: 'compacted'; summary: string };

/** agent/transcript's answer: what a view needs to redraw a session's conversation. */
export interface TranscriptResult {
  sessionId: string;
  title: string;
  mode?: Mode;
  entries: TranscriptEntry[];
  plan: PlanItem[];
  totals?: Totals;
}

export interface MessageActionItem {
  title: string;
}

export interface ShowMessageRequestParams {
  type: number;
  message: string;
  actions?: MessageActionItem[];
}

/** The kinds (and ids) of agent/approve's options (docs/protocol.md, Structured approval). */
export type ApproveOptionKind = 'allow_once' | 'allow_session' | 'deny';

/** One answer agent/approve offers: the button's title and what it does. */
export interface ApproveOption {
  id: string;
  title: string;
  kind: ApproveOptionKind;
}

/** agent/approve's params: an action the policy asks a person about. */
export interface ApproveParams {
  sessionId: string;
  toolCallId: string;
  tool: string;
  /** low, medium or high. */
  risk: string;
  reasons: string[];
  summary: string;
  /** run_bash's command. */
  command?: string;
  /** The file the action touches, relative to the workspace, and its URI. */
  path?: string;
  uri?: string;
  /** An edit's change, as in agent/review. */
  hunks?: ReviewHunk[];
  options: ApproveOption[];
}

/** The answer to agent/approve: an offered option's id (null: Deny). */
export interface ApproveAnswer {
  optionId: string;
}

/** One hunk of an agent/review: lines 0-based, endLine exclusive, of the text the agent read. */
export interface ReviewHunk {
  id: number;
  startLine: number;
  endLine: number;
  oldText: string;
  newText: string;
  /** The hunk as a unified diff hunk (with context), for display. */
  diff: string;
}

/** agent/review's params: an edit proposal, hunk by hunk (docs/protocol.md, Hunk review). */
export interface ReviewParams {
  sessionId: string;
  toolCallId: string;
  tool: string;
  summary: string;
  /** Relative to the workspace. */
  path: string;
  uri: string;
  risk: string;
  reasons?: string[];
  hunks: ReviewHunk[];
}

export type ReviewDecision = 'accept' | 'reject' | 'partial';

/** The answer to agent/review. */
export interface ReviewAnswer {
  decision: ReviewDecision;
  acceptedHunks?: number[];
  feedback?: string;
}

/** One checkpoint of agent/checkpoints: the state before a prompt. */
export interface Checkpoint {
  checkpointId: string;
  prompt: string;
  createdAt: string;
  /** The files the prompt changed, relative to the workspace. */
  files: string[];
}

export interface RewindParams {
  sessionId: string;
  checkpointId: string;
  restoreFiles: boolean;
  truncateConversation: boolean;
}

/** agent/rewind's answer; agent.revert answers restored and conflicts too. */
export interface RewindResult {
  restored: Array<{ path: string; action: string }>;
  conflicts: Array<{ path: string; reason: string }>;
  droppedMessages?: number;
  droppedCheckpoints?: number;
}

/**
 * declareAgentRequests adds experimental.agentReview and agentApprove to
 * the client's capabilities, keeping what is there: the daemon then sends
 * agent/review for edits and agent/approve for every other approval,
 * never the approval popup.
 */
export function declareAgentRequests(capabilities: { experimental?: unknown }): void {
  const experimental = capabilities.experimental;
  capabilities.experimental = {
    ...(experimental !== null && typeof experimental === 'object' ? (experimental as Record<string, unknown>) : {}),
    agentReview: true,
    agentApprove: true,
  };
}

/** The smallest connection both a LanguageClient and a vscode-jsonrpc MessageConnection provide. */
export interface RpcConnection {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  sendNotification(method: string, params: unknown): Promise<void>;
}

/**
 * AgentClient sends the agent/* requests. The extension wraps its
 * LanguageClient in it; the protocol test wraps a MessageConnection.
 */
export class AgentClient {
  constructor(private readonly conn: RpcConnection) {}

  async newSession(title?: string): Promise<string> {
    const r = await this.conn.sendRequest<{ sessionId: string }>(Methods.newSession, title ? { title } : {});
    return r.sessionId;
  }

  prompt(params: PromptParams): Promise<PromptResult> {
    return this.conn.sendRequest<PromptResult>(Methods.prompt, params);
  }

  async sessions(): Promise<SessionInfo[]> {
    const r = await this.conn.sendRequest<{ sessions: SessionInfo[] | null }>(Methods.sessions, {});
    return r.sessions ?? [];
  }

  async tools(): Promise<ToolInfo[]> {
    const r = await this.conn.sendRequest<{ tools: ToolInfo[] | null }>(Methods.tools, {});
    return r.tools ?? [];
  }

  compact(sessionId: string, workDoneToken?: string): Promise<CompactResult> {
    return this.conn.sendRequest<CompactResult>(Methods.compact, workDoneToken ? { sessionId, workDoneToken } : { sessionId });
  }

  async setMode(sessionId: string, mode: Mode): Promise<Mode> {
    const r = await this.conn.sendRequest<{ mode: Mode }>(Methods.setMode, { sessionId, mode });
    return r.mode;
  }

  setModel(params: SetModelParams): Promise<CurrentModel> {
    return this.conn.sendRequest<CurrentModel>(Methods.setModel, params);
  }

  async models(sessionId?: string): Promise<ModelsResult> {
    const r = await this.conn.sendRequest<{ models: ModelPreset[] | null; current?: CurrentModel }>(Methods.models, sessionId ? { sessionId } : {});
    return r.current ? { models: r.models ?? [], current: r.current } : { models: r.models ?? [] };
  }

  async commands(): Promise<CommandInfo[]> {
    const r = await this.conn.sendRequest<{ commands: CommandInfo[] | null }>(Methods.commands, {});
    return (r.commands ?? []).map((c) => ({ ...c, arguments: c.arguments ?? [] }));
  }

  async session(sessionId: string): Promise<SessionState> {
    const r = await this.conn.sendRequest<SessionState>(Methods.session, { sessionId });
    return { ...r, plan: r.plan ?? [] };
  }

  async checkpoints(sessionId: string): Promise<Checkpoint[]> {
    const r = await this.conn.sendRequest<{ checkpoints: Checkpoint[] | null }>(Methods.checkpoints, { sessionId });
    return (r.checkpoints ?? []).map((c) => ({ ...c, files: c.files ?? [] }));
  }

  async rewind(params: RewindParams): Promise<RewindResult> {
    const r = await this.conn.sendRequest<RewindResult>(Methods.rewind, params);
    return { ...r, restored: r.restored ?? [], conflicts: r.conflicts ?? [] };
  }

  async transcript(sessionId: string): Promise<TranscriptResult> {
    const r = await this.conn.sendRequest<TranscriptResult>(Methods.transcript, { sessionId });
    return { ...r, entries: r.entries ?? [], plan: r.plan ?? [] };
  }

  /** Cancels every running or queued prompt of the session (a notification: no answer). */
  cancel(sessionId: string): Promise<void> {
    return this.conn.sendNotification(Methods.cancel, { sessionId });
  }
}

/** promptParams builds agent/prompt's params, leaving out what is not set. */
export function promptParams(prompt: string, opts: { sessionId?: string; context?: PromptContext; workDoneToken?: string } = {}): PromptParams {
  const p: PromptParams = { prompt };
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
