// The wire types of sessions and prompts: what a prompt is about, the
// session's modes and plan, the mentions it attached, agent/prompt's params
// and result, agent/session, agent/sessions, agent/tools, agent/compact.

import type { CurrentModel } from './models';
import type { PromptInfo } from './mcp';
import type { Delivery } from './queue';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** What a prompt is about: a file, or a selection in it; files to attach. */
export interface PromptContext {
  uri: string;
  range?: Range;
  files?: string[];
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

/**
 * A session's usage and cost. cost is absent when a call went to a model
 * without a price (the daemon then sends costKnown false): the views read
 * cost's absence, so costKnown is optional here.
 */
export interface Totals extends Usage {
  cost?: number;
  costKnown?: boolean;
}

export interface PromptParams {
  sessionId?: string;
  prompt: string;
  context?: PromptContext;
  workDoneToken?: string;
  /** Images for a model that takes them: base64 data, or a workspace file's URI. */
  images?: PromptImage[];
  /** While another prompt runs: "queue" joins the session's queue, "steer" goes into the running prompt (docs/protocol.md, "Queue and steer"). Absent: it waits, unlisted. */
  delivery?: Delivery;
}

export interface PromptImage {
  mimeType?: string;
  data?: string;
  uri?: string;
}

/** steered: a steer message was delivered to the running turn (its answer is that turn's). spend_limit: the next request would have crossed a spend cap. */
export type StopReason = 'end_turn' | 'max_tokens' | 'max_rounds' | 'answer_cut' | 'tool_call_limit' | 'spend_limit' | 'cancelled' | 'steered' | 'error';

export interface PromptResult {
  sessionId: string;
  stopReason: StopReason;
  text: string;
  usage: Usage;
  error?: string;
  /** The line to show when the prompt ended at a limit (max_rounds, answer_cut, tool_call_limit). */
  notice?: string;
  mentions?: MentionReport[];
  /** The slash command the prompt ran ("/mode"), when it was one. */
  command?: string;
}

export interface SessionInfo {
  sessionId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  /** The git worktree the session owns (docs/protocol.md "Sessions in git worktrees"). */
  worktree?: WorktreeInfo;
}

export interface WorktreeInfo {
  path: string;
  branch: string;
  base?: string;
}

/** agent/worktree: bring a worktree session's work back, or remove its worktree. */
export interface WorktreeParams {
  sessionId: string;
  action: 'review' | 'apply' | 'merge' | 'remove';
  force?: boolean;
}

export interface WorktreeResult {
  action: string;
  applied?: { path: string; hunks: number; accepted?: number[] }[];
  rejected?: string[];
  skipped?: { path: string; reason: string }[];
  branch?: string;
  committed?: boolean;
  path?: string;
  branchKept?: boolean;
}

export interface ToolInfo {
  name: string;
  description: string;
  source: string;
}

/** The params of a method that takes none. */
export type NoParams = Record<string, never>;

/** The params of a method about one session. */
export interface SessionParams {
  sessionId: string;
}

export interface NewSessionParams {
  title?: string;
  /** true, or the worktree's name: the session runs in a new git worktree. */
  worktree?: boolean | string;
}

export interface NewSessionResult {
  sessionId: string;
  worktree?: WorktreeInfo;
}

export interface SessionsResult {
  sessions: SessionInfo[] | null;
}

export interface ToolsResult {
  tools: ToolInfo[] | null;
  prompts: PromptInfo[] | null;
}

/** agent/cancel's params (a notification). */
export interface CancelParams extends SessionParams {
  /** Also remove the prompts queued with delivery "queue". */
  dropQueue?: boolean;
}

export interface CompactParams extends SessionParams {
  workDoneToken?: string | number;
  /** What the summary must keep (as `/compact <instructions>`). */
  instructions?: string;
}

export interface SetModeParams extends SessionParams {
  mode: Mode;
}

export interface ModeResult {
  mode: Mode;
}

export interface CompactResult {
  beforeTokens: number;
  afterTokens: number;
  elided: number;
  summarised: number;
  error?: string;
}
