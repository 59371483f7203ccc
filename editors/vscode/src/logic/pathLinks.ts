// File paths in an answer ("src/review.ts", `lsp/server.go:42`) as links
// that open the file at the line. Only a path the resolver names as a file
// inside the workspace becomes a link; the resolver (src/chatView.ts)
// checks the disk, so a word that merely looks like a path stays text.

import type MarkdownIt = require('markdown-it');

/** PathResolver is a candidate's workspace-relative file path, or undefined when it is none. */
export type PathResolver = (candidate: string) => string | undefined;

export interface PathTarget {
  path: string;
  line?: number;
}

// A word that may be a path, with a line: "a/b.go", "./x.ts:12", "y.py:3:7", "z.rs:4-9", "w.go#L5".
const candidate = /[\w@+~./-]*[\w@+~-][\w@+~./-]*(?::\d+(?:[:-]\d+)?|#L\d+(?:-L?\d+)?)?/g;
const lineSuffix = /^(.*?)(?::(\d+)(?:[:-]\d+)?|#L(\d+)(?:-L?\d+)?)?$/;

/** pathTarget is what a word names in the workspace, if anything. */
export function pathTarget(word: string, resolve: PathResolver): PathTarget | undefined {
  const m = lineSuffix.exec(word);
  if (!m) return undefined;
  const path = m[1].replace(/[.]+$/, '');
  // Only what looks like a path costs a look at the disk.
  if (!path.includes('/') && !/\.\w+$/.test(path)) return undefined;
  const file = resolve(path);
  if (file === undefined) return undefined;
  const line = Number(m[2] ?? m[3] ?? 0);
  return line > 0 ? { path: file, line } : { path: file };
}

/** linkPaths is a core rule: it wraps workspace paths in text and inline code in links. */
export function linkPaths(state: MarkdownIt.StateCore, resolve: PathResolver): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: MarkdownIt.Token[] = [];
    let inLink = 0;
    for (const t of block.children) {
      if (t.type === 'link_open') inLink++;
      if (t.type === 'link_close') inLink--;
      if (inLink > 0) {
        out.push(t);
        continue;
      }
      if (t.type === 'code_inline') {
        const target = pathTarget(t.content, resolve);
        if (target) out.push(linkOpen(state, target), t, new state.Token('link_close', 'a', -1));
        else out.push(t);
      } else if (t.type === 'text') {
        out.push(...splitText(state, t, resolve));
      } else {
        out.push(t);
      }
    }
    block.children = out;
  }
}

function splitText(state: MarkdownIt.StateCore, t: MarkdownIt.Token, resolve: PathResolver): MarkdownIt.Token[] {
  const s = t.content;
  if (!s.includes('.') && !s.includes('/')) return [t];
  const out: MarkdownIt.Token[] = [];
  let last = 0;
  for (const m of s.matchAll(candidate)) {
    const start = m.index ?? 0;
    // Trailing sentence punctuation is not part of the path.
    const word = m[0].replace(/[.]+$/, '');
    if (start > 0 && /[\w:/]/.test(s[start - 1])) continue;
    const target = pathTarget(word, resolve);
    if (!target) continue;
    if (start > last) out.push(text(state, s.slice(last, start)));
    out.push(linkOpen(state, target), text(state, word), new state.Token('link_close', 'a', -1));
    last = start + word.length;
  }
  if (last === 0) return [t];
  if (last < s.length) out.push(text(state, s.slice(last)));
  return out;
}

function text(state: MarkdownIt.StateCore, content: string): MarkdownIt.Token {
  const t = new state.Token('text', '', 0);
  t.content = content;
  return t;
}

function linkOpen(state: MarkdownIt.StateCore, target: PathTarget): MarkdownIt.Token {
  const t = new state.Token('link_open', 'a', 1);
  t.attrs = [['href', '#']];
  t.meta = { path: target };
  return t;
}
