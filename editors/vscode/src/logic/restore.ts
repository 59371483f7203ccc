// What the chat shows when it reopens a session (a window reload, a
// restarted daemon, a session picked): the conversation agent/transcript
// answered, or, when it cannot be had, a line saying why and what the next
// prompt does, so a prompt never silently continues a conversation the
// chat does not show.

import type { TranscriptResult } from '../protocol';
import type { Transcript } from './transcript';

/** JSON-RPC's "method not found": a daemon older than agent/transcript. */
const methodNotFound = -32601;
/** The daemon's "invalid params", which it answers for an unknown session. */
const invalidParams = -32602;

export type RestoreOutcome =
  /** The conversation was drawn; the session goes on. */
  | { kind: 'restored'; title: string; entries: number }
  /** The daemon cannot send history: the session goes on, unseen. */
  | { kind: 'unsupported' }
  /** The daemon does not know the session: forget it, the next prompt starts a new one. */
  | { kind: 'gone' }
  /** Another failure (the daemon is down): keep the session, say so. */
  | { kind: 'failed'; message: string };

/** restoreOutcome classifies agent/transcript's answer or error. */
export function restoreOutcome(result: TranscriptResult | undefined, err?: unknown): RestoreOutcome {
  if (result) return { kind: 'restored', title: result.title, entries: result.entries.length };
  const code = (err as { code?: unknown } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === methodNotFound) return { kind: 'unsupported' };
  if (code === invalidParams && /unknown session/i.test(message)) return { kind: 'gone' };
  return { kind: 'failed', message };
}

/**
 * applyRestore redraws transcript for the outcome and returns the notice
 * to append, if any (a restored session that is empty needs none). What
 * the chat already shows stays when the daemon's copy cannot be had (a
 * daemon restarted after a crash still has the chat's lines on screen).
 */
export function applyRestore(transcript: Transcript, outcome: RestoreOutcome, result: TranscriptResult | undefined, sessionId: string): string | undefined {
  switch (outcome.kind) {
    case 'restored':
      transcript.load(result?.entries ?? [], result?.totals);
      return outcome.entries > 0 ? `Session "${outcome.title || sessionId}" restored.` : undefined;
    case 'unsupported':
      return `Session "${sessionId}" goes on, but this daemon cannot send its history (agent/transcript): earlier messages are not shown.`;
    case 'gone':
      transcript.clear();
      return `The daemon no longer has session "${sessionId}": the next prompt starts a new one.`;
    case 'failed':
      return `Session "${sessionId}" could not be redrawn (${outcome.message}); the next prompt continues it.`;
  }
}
