// "agent-lsp: Rewind…" without VS Code: the checkpoints as quick pick rows,
// the rewind options, the agent/rewind params and the message that says
// what a rewind (or agent.revert) did.

import type { Checkpoint, RewindParams, RewindResult } from '../protocol';

export interface CheckpointItem {
  checkpointId: string;
  label: string;
  description: string;
  detail: string;
}

/**
 * checkpointItems are the rows of the checkpoint pick, newest first;
 * each is numbered as /rewind numbers them (oldest is 1).
 */
export function checkpointItems(checkpoints: readonly Checkpoint[], formatTime: (iso: string) => string = (t) => t): CheckpointItem[] {
  return checkpoints
    .map((c, i) => {
      const prompt = c.prompt.split('\n')[0].trim() || '(empty prompt)';
      const files = c.files ?? [];
      return {
        checkpointId: c.checkpointId,
        label: `${i + 1}. ${prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt}`,
        description: formatTime(c.createdAt),
        detail: files.length === 0 ? 'changed no files' : `changed ${files.join(', ')}`,
      };
    })
    .reverse();
}

export type RewindOption = 'restoreFiles' | 'truncateConversation';

export interface RewindOptionItem {
  option: RewindOption;
  label: string;
  detail: string;
  picked: boolean;
}

/** The second pick: what to rewind; both are picked at first. */
export function rewindOptionItems(): RewindOptionItem[] {
  return [
    { option: 'restoreFiles', label: 'Restore files', detail: 'Put the files back as they were before that prompt (one edit: Undo brings the agent’s work back)', picked: true },
    { option: 'truncateConversation', label: 'Truncate conversation', detail: 'Drop that prompt and everything after it from the conversation', picked: true },
  ];
}

/** rewindParams is agent/rewind's params for the picked options; undefined when none is picked. */
export function rewindParams(sessionId: string, checkpointId: string, options: Iterable<RewindOption>): RewindParams | undefined {
  const set = new Set(options);
  if (set.size === 0) return undefined;
  return { sessionId, checkpointId, restoreFiles: set.has('restoreFiles'), truncateConversation: set.has('truncateConversation') };
}

/** What the rewind did, as one message; warning when some file was left in conflict. */
export function rewindSummary(r: RewindResult): { message: string; warning: boolean } {
  const parts: string[] = [];
  const byAction = new Map<string, string[]>();
  for (const f of r.restored ?? []) byAction.set(f.action, [...(byAction.get(f.action) ?? []), f.path]);
  for (const [action, paths] of byAction) parts.push(`${action} ${paths.join(', ')}`);
  if (r.droppedMessages) parts.push(`dropped ${r.droppedMessages} message${r.droppedMessages === 1 ? '' : 's'} of the conversation`);
  if (r.droppedCheckpoints) parts.push(`${r.droppedCheckpoints} checkpoint${r.droppedCheckpoints === 1 ? '' : 's'} dropped`);
  let message = parts.length > 0 ? parts.join('; ') : 'nothing to change';
  const conflicts = r.conflicts ?? [];
  if (conflicts.length > 0) message += `. Left as they are: ${conflicts.map((c) => `${c.path} (${c.reason})`).join('; ')}`;
  return { message: message.charAt(0).toUpperCase() + message.slice(1) + '.', warning: conflicts.length > 0 };
}
