// The wire types of what a session streams and what redraws it: the
// agent/update notification by kind and agent/transcript's entries.

import type { CurrentModel } from './models';
import type { QueueItem } from './queue';
import type { MentionReport, Mode, PlanItem, Totals, Usage } from './session';
import type { Spend } from './spend';

interface UpdateBase {
  sessionId: string;
  seq: number;
  /**
   * Set on a subagent's updates: the toolCallId of the `task` call it runs
   * under. They are the parent session's (sessionId, seq); a child's
   * round_end carries the child call's usage and cost, totals the session's.
   */
  parentToolCallId?: string;
}

export type ToolStatus = 'completed' | 'failed' | 'denied';

/** One agent/update notification, by kind. */
export type Update =
  | (UpdateBase & { kind: 'text' | 'reasoning'; text: string })
  | (UpdateBase & { kind: 'tool_call'; toolCallId: string; name: string; arguments: unknown })
  | (UpdateBase & { kind: 'tool_result'; toolCallId: string; name: string; status: ToolStatus; output: string })
  /** cost is absent when the model has no price (the daemon sends costKnown false; views read the absence). */
  | (UpdateBase & { kind: 'round_end'; stopReason: string; usage: Usage; cost?: number; costKnown?: boolean; totals: Totals; spend?: Spend })
  | (UpdateBase & { kind: 'compacted'; beforeTokens: number; afterTokens: number; cost?: number; costKnown?: boolean; totals: Totals; spend?: Spend })
  /** A model call failed and is tried again after delayMs. */
  | (UpdateBase & { kind: 'retry'; attempt: number; maxAttempts: number; delayMs: number; message: string })
  | (UpdateBase & { kind: 'error'; message: string })
  /** The session's whole queue after every change (added, edited, removed, started, delivered). */
  | (UpdateBase & { kind: 'queue'; items: QueueItem[] | null })
  /** A steer message entered the running turn's history (just before the model request that carries it). */
  | (UpdateBase & { kind: 'steer'; id: string; prompt: string })
  | (UpdateBase & { kind: 'plan'; items: PlanItem[] })
  | (UpdateBase & { kind: 'mode'; mode: Mode })
  /** message says why the model changed when the user did not ask (a resumed session's model was unreachable). */
  | (UpdateBase & { kind: 'model'; message?: string } & CurrentModel)
  | (UpdateBase & { kind: 'mention' } & MentionReport);

/**
 * One entry of agent/transcript: a user prompt as the model received it
 * (attachments included; the checkpoint made before it, when known) or
 * what the matching agent/update kind carried, in the order it happened.
 */
export type TranscriptEntry =
  | { kind: 'user'; text: string; checkpointId?: string }
  | ({ kind: 'text' | 'reasoning'; text: string })
  | ({ kind: 'tool_call'; toolCallId: string; name: string; arguments: unknown })
  | ({ kind: 'tool_result'; toolCallId: string; name: string; status: ToolStatus; output: string })
  /** The summary that replaced the conversation before it (whose messages are not entries). */
  | { kind: 'compacted'; summary: string };

/** agent/transcript's params: a session's, or (with parentToolCallId) the transcript of the subagent its `task` call ran. */
export interface TranscriptParams {
  sessionId: string;
  parentToolCallId?: string;
}

/** agent/transcript's answer: what a view needs to redraw a session's conversation. */
export interface TranscriptResult {
  sessionId: string;
  title: string;
  mode?: Mode;
  entries: TranscriptEntry[];
  plan: PlanItem[];
  totals?: Totals;
}
