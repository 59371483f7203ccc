// A code block from an answer, applied to a document as hunks for the
// same review the agent's edits get (src/review.ts): the block replaces
// the selected lines, or with no selection the whole document, and the
// difference is cut into hunks by a line diff (jsdiff, the diff library
// most of npm uses) so each change can be kept or dropped on its own.

import { diffLines } from 'diff';
import type { ReviewHunk } from '../protocol';
import { splitLines } from './review';

/** The selection as whole lines: 0-based, end exclusive; none is the whole document. */
export interface LineSpan {
  startLine: number;
  endLine: number;
}

/**
 * selectedLines is the lines a selection covers (a selection ending at a
 * line's start leaves that line out), or undefined for an empty one.
 */
export function selectedLines(start: { line: number; character: number }, end: { line: number; character: number }): LineSpan | undefined {
  if (start.line === end.line && start.character === end.character) return undefined;
  const endLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
  return { startLine: start.line, endLine };
}

/** proposedText is the document with the code in place of the span (every line when span is undefined). */
export function proposedText(current: string, code: string, span?: LineSpan): string {
  if (!span) return code;
  const lines = splitLines(current);
  const replaced = lines.slice(span.startLine, span.endLine).join('');
  let block = code;
  // The block takes the place of whole lines: keep the break after them.
  if (replaced.endsWith('\n') && !block.endsWith('\n')) block += '\n';
  return lines.slice(0, span.startLine).join('') + block + lines.slice(span.endLine).join('');
}

/** codeHunks is the change from current to proposed as review hunks (lines of current, end exclusive). */
export function codeHunks(current: string, proposed: string): ReviewHunk[] {
  const hunks: ReviewHunk[] = [];
  let line = 0;
  let open: { startLine: number; oldText: string; newText: string } | undefined;
  const close = (): void => {
    if (!open) return;
    const endLine = open.startLine + splitLines(open.oldText).length;
    const diff = [
      `@@ -${open.startLine + 1},${endLine - open.startLine} +${open.startLine + 1},${splitLines(open.newText).length} @@`,
      ...splitLines(open.oldText).map((l) => `-${l.replace(/\n$/, '')}`),
      ...splitLines(open.newText).map((l) => `+${l.replace(/\n$/, '')}`),
    ].join('\n');
    hunks.push({ id: hunks.length + 1, startLine: open.startLine, endLine, oldText: open.oldText, newText: open.newText, diff });
    open = undefined;
  };
  for (const part of diffLines(current, proposed)) {
    if (!part.added && !part.removed) {
      close();
      line += splitLines(part.value).length;
      continue;
    }
    open ??= { startLine: line, oldText: '', newText: '' };
    if (part.removed) {
      open.oldText += part.value;
      line += splitLines(part.value).length;
    } else {
      open.newText += part.value;
    }
  }
  close();
  return hunks;
}
