// A subagent's progress under its `task` call: the updates carrying
// parentToolCallId fold into the child's own list (its text, reasoning,
// tool calls and errors) and its usage, which the task card shows
// indented under the call (render.ts). The child's tool call ids are its
// own: they may repeat the parent's, so they are looked up here only.

import type { ToolStatus, Update, Usage } from '../protocol';

export type ChildEntry =
  | { kind: 'text' | 'reasoning'; text: string }
  | { kind: 'tool'; toolCallId: string; name: string; detail: string; status: 'running' | ToolStatus; output?: string }
  | { kind: 'error'; message: string }
  | { kind: 'retry'; message: string };

/** What a task card shows of its child. */
export interface ChildProgress {
  /** The task call's description argument (what the child was asked to find out or do). */
  description: string;
  entries: ChildEntry[];
  /** The child's model calls so far, summed. */
  usage: Usage;
  /** The child's cost; undefined once a call had no price. */
  cost?: number;
  calls: number;
}

/** The name of the subagent tool (docs/protocol.md, "Subagents"). */
export const taskTool = 'task';

/** newChild is the progress of a child about to start, from its task call's arguments. */
export function newChild(args: unknown): ChildProgress {
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const description = typeof a.description === 'string' ? a.description : '';
  return { description, entries: [], usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, cost: 0, calls: 0 };
}

/**
 * foldChild applies one of the child's updates to its progress; detail is
 * how a tool call's arguments show (transcript.ts toolDetail). false: a
 * kind the child's list does not show.
 */
export function foldChild(c: ChildProgress, u: Update, detail: (args: unknown) => string): boolean {
  const last = c.entries[c.entries.length - 1];
  switch (u.kind) {
    case 'text':
    case 'reasoning':
      if (last && last.kind === u.kind) last.text += u.text;
      else c.entries.push({ kind: u.kind, text: u.text });
      return true;
    case 'tool_call':
      c.entries.push({ kind: 'tool', toolCallId: u.toolCallId, name: u.name, detail: detail(u.arguments), status: 'running' });
      return true;
    case 'tool_result': {
      const card = [...c.entries].reverse().find((e) => e.kind === 'tool' && e.toolCallId === u.toolCallId);
      if (card && card.kind === 'tool') {
        card.status = u.status;
        card.output = u.output;
      } else {
        c.entries.push({ kind: 'tool', toolCallId: u.toolCallId, name: u.name, detail: '', status: u.status, output: u.output });
      }
      return true;
    }
    case 'round_end':
      c.calls += 1;
      c.usage = {
        promptTokens: c.usage.promptTokens + u.usage.promptTokens,
        completionTokens: c.usage.completionTokens + u.usage.completionTokens,
        cachedTokens: c.usage.cachedTokens + u.usage.cachedTokens,
      };
      c.cost = c.cost === undefined || u.cost === undefined ? undefined : c.cost + u.cost;
      return true;
    case 'error':
      c.entries.push({ kind: 'error', message: u.message });
      return true;
    case 'retry':
      c.entries.push({ kind: 'retry', message: `retrying (${u.attempt}/${u.maxAttempts}): ${u.message}` });
      return true;
    default:
      return false;
  }
}

/** settleChild ends the child's tool calls still running when its parent's prompt ended. */
export function settleChild(c: ChildProgress, cancelled: boolean): void {
  for (const e of c.entries) {
    if (e.kind === 'tool' && e.status === 'running') {
      e.status = cancelled ? 'denied' : 'failed';
      e.output = e.output ?? (cancelled ? 'cancelled' : 'did not finish');
    }
  }
}

/** parentOf is the toolCallId of the task call an update belongs under (undefined: the session's own). */
export function parentOf(u: Update): string | undefined {
  const p = (u as { parentToolCallId?: unknown }).parentToolCallId;
  return typeof p === 'string' && p !== '' ? p : undefined;
}
