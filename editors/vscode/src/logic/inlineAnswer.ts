// The answer to an inline question (Alt+I) as it is shown next to the
// selection, without VS Code: the transcript's entries after the
// question's prompt folded into one markdown body (the model's text as it
// streams, one line per tool call, the error), and the thread's label.
// The comment thread that shows it is inlineAsk.ts.

import type { Entry } from './transcript';

/** Where the question's prompt is: its entry object, found again however the transcript grew. */
export interface InlineQuestion {
  prompt: Entry;
}

/** How far the answer is. */
export type InlineState = 'running' | 'done' | 'failed' | 'cancelled';

/**
 * answerEntries are the entries the question's prompt led to: those after
 * it, up to the next prompt. undefined when the prompt is no longer in
 * the transcript (a rewind or another session redrew it): the answer is
 * then left as it was last shown.
 */
export function answerEntries(entries: readonly Entry[], q: InlineQuestion): Entry[] | undefined {
  const at = entries.indexOf(q.prompt);
  if (at < 0) return undefined;
  const rest = entries.slice(at + 1);
  const next = rest.findIndex((e) => e.kind === 'prompt');
  return next < 0 ? rest : rest.slice(0, next);
}

const toolMarks: Record<string, string> = { running: '$(loading~spin)', completed: '$(check)', failed: '$(error)', denied: '$(circle-slash)' };

/**
 * answerMarkdown is the body shown under the selection: the model's text
 * as markdown (the comment widget renders it, without raw HTML), each tool
 * call on a line of its own with its state, an error or a notice in
 * italics; while nothing has arrived yet, what the answer waits for.
 */
export function answerMarkdown(entries: readonly Entry[], state: InlineState, progress?: string): string {
  const parts: string[] = [];
  for (const e of entries) {
    switch (e.kind) {
      case 'text':
        if (e.text.trim()) parts.push(e.text.trim());
        break;
      case 'tool': {
        const detail = e.detail ? ` \`${e.detail.replace(/`/g, "'").split('\n')[0].slice(0, 120)}\`` : '';
        parts.push(`${toolMarks[e.status] ?? ''} ${e.name}${detail}`.trim());
        break;
      }
      case 'error':
        parts.push(`$(error) *${escapeMarkdown(e.message)}*`);
        break;
      case 'notice':
      case 'command':
        parts.push(`*${escapeMarkdown(e.text)}*`);
        break;
      default:
        // Reasoning, usage lines, settings and mentions belong to the chat.
        break;
    }
  }
  if (parts.length === 0) {
    if (state === 'running') return `$(loading~spin) ${escapeMarkdown(progress ?? 'Asking the model')}…`;
    if (state === 'cancelled') return '*Cancelled.*';
    return state === 'failed' ? '$(error) *The question was not answered: the chat and its notification say why.*' : '*No answer.*';
  }
  if (state === 'running' && progress) parts.push(`$(loading~spin) *${escapeMarkdown(progress)}…*`);
  if (state === 'cancelled') parts.push('*Cancelled.*');
  return parts.join('\n\n');
}

/** threadLabel is the thread's header: whose answer, to what, on which lines. */
export function threadLabel(where: string, state: InlineState): string {
  const how = state === 'running' ? 'answering' : state === 'done' ? 'answered' : state;
  return `agent-lsp · ${where} · ${how}`;
}

/** escapeMarkdown keeps a plain message plain: its *, _, [, ` and the like are not markup. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}
