// Unified diffs as the daemon writes them (go-udiff, `diff -u` style): parse
// the hunks and apply them to a document's text, to show the proposed text
// of an edit before the user approves it.

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
  /** The line has no line break ("\ No newline at end of file" followed it). */
  noNewline: boolean;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface UnifiedDiff {
  oldPath?: string;
  newPath?: string;
  hunks: Hunk[];
  /** False when the diff was cut (the popup shows at most 40 lines): only whole hunks are kept. */
  complete: boolean;
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const noNewlineMarker = '\\ No newline at end of file';
// The daemon's two truncation notes: compactDiff's "… (N more diff lines)"
// and Truncate's "[… N bytes (M lines) cut from the middle of T bytes …]".
const cutNote = /^… \(\d+ more diff lines\)$|^\[… \d+ bytes \(\d+ lines\) cut from the middle/;

/**
 * parseUnifiedDiff reads a diff from lines[from:] and returns it with the
 * index of the first line after it: a line that is neither a header, a
 * hunk line nor a truncation note ends the diff.
 */
export function parseUnifiedDiff(lines: readonly string[], from = 0): { diff: UnifiedDiff; end: number } {
  const diff: UnifiedDiff = { hunks: [], complete: true };
  let i = from;
  if (i < lines.length && lines[i].startsWith('--- ')) {
    diff.oldPath = lines[i].slice(4).replace(/\t.*$/, '');
    i++;
  }
  if (i < lines.length && lines[i].startsWith('+++ ')) {
    diff.newPath = lines[i].slice(4).replace(/\t.*$/, '');
    i++;
  }
  while (i < lines.length) {
    const line = lines[i];
    if (cutNote.test(line)) {
      diff.complete = false;
      i++;
      // After a cut from the middle, what follows is the diff's tail, no
      // longer aligned with any hunk header: skip it.
      while (i < lines.length && /^[ +\-@\\]/.test(lines[i])) i++;
      continue;
    }
    const m = hunkHeader.exec(line);
    if (!m) break;
    if (!diff.complete) {
      i++;
      continue;
    }
    const hunk: Hunk = {
      oldStart: Number(m[1]),
      oldLines: m[2] === undefined ? 1 : Number(m[2]),
      newStart: Number(m[3]),
      newLines: m[4] === undefined ? 1 : Number(m[4]),
      lines: [],
    };
    i++;
    let oldLeft = hunk.oldLines;
    let newLeft = hunk.newLines;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
      const l = lines[i];
      const op = l === '' ? ' ' : l[0];
      if (op === '\\') {
        markNoNewline(hunk);
        i++;
        continue;
      }
      if (op === ' ' && oldLeft > 0 && newLeft > 0) {
        oldLeft--;
        newLeft--;
      } else if (op === '-' && oldLeft > 0) {
        oldLeft--;
      } else if (op === '+' && newLeft > 0) {
        newLeft--;
      } else {
        break;
      }
      hunk.lines.push({ op, text: l.slice(1), noNewline: false });
      i++;
    }
    if (i < lines.length && lines[i] === noNewlineMarker) {
      markNoNewline(hunk);
      i++;
    }
    if (oldLeft > 0 || newLeft > 0) {
      // A hunk cut short: it cannot be applied, and nothing after it is a diff line.
      diff.complete = false;
      break;
    }
    diff.hunks.push(hunk);
  }
  return { diff, end: i };
}

function markNoNewline(hunk: Hunk): void {
  const last = hunk.lines[hunk.lines.length - 1];
  if (last) last.noNewline = true;
}

interface TextLine {
  text: string;
  newline: boolean;
}

function splitLines(text: string): TextLine[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const out: TextLine[] = parts.slice(0, -1).map((t) => ({ text: t, newline: true }));
  const last = parts[parts.length - 1];
  if (last !== '') out.push({ text: last, newline: false });
  return out;
}

function joinLines(lines: readonly TextLine[]): string {
  return lines.map((l) => l.text + (l.newline ? '\n' : '')).join('');
}

export class DiffMismatchError extends Error {}

/**
 * applyUnifiedDiff applies the hunks to text. A hunk is placed where its
 * header says when its old lines are there, else at the nearest place after
 * the previous hunk where they are (the document may have moved since the
 * diff was made); a hunk whose old lines are nowhere throws a
 * DiffMismatchError. Line breaks inside line texts ("\r") are kept as they are.
 */
export function applyUnifiedDiff(text: string, diff: UnifiedDiff): string {
  const old = splitLines(text);
  const out: TextLine[] = [];
  let cursor = 0;
  diff.hunks.forEach((hunk, n) => {
    const before = hunk.lines.filter((l) => l.op !== '+').map((l) => l.text);
    const expected = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = locate(old, before, expected, cursor);
    if (at < 0) {
      throw new DiffMismatchError(`hunk ${n + 1} (@@ -${hunk.oldStart},${hunk.oldLines}) does not match the document`);
    }
    out.push(...old.slice(cursor, at));
    let k = at;
    for (const l of hunk.lines) {
      if (l.op === ' ') {
        out.push(old[k]);
        k++;
      } else if (l.op === '-') {
        k++;
      } else {
        out.push({ text: l.text, newline: !l.noNewline });
      }
    }
    cursor = at + before.length;
  });
  out.push(...old.slice(cursor));
  // A line that gained a successor needs a line break even when the diff
  // did not say so (a context line that ended the old text).
  for (let i = 0; i < out.length - 1; i++) out[i] = { text: out[i].text, newline: true };
  return joinLines(out);
}

function locate(old: readonly TextLine[], want: readonly string[], expected: number, min: number): number {
  const matches = (at: number): boolean =>
    at >= min && at + want.length <= old.length && want.every((t, j) => old[at + j].text === t);
  if (matches(expected)) return expected;
  for (let d = 1; d <= old.length; d++) {
    if (matches(expected - d)) return expected - d;
    if (matches(expected + d)) return expected + d;
  }
  return -1;
}
