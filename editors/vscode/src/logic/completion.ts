// Completion in the chat input: slash commands (agent/commands) when the
// text starts with "/", the modes after "/mode ", and workspace files after
// "@" (a mention). The webview sends its text and cursor; this decides
// what to suggest and which part of the text a choice replaces.

import { modes, type CommandInfo } from '../protocol';
import { modeDescriptions } from './models';

/** A word of the input being completed: text[start, end), query the part before the cursor. */
export interface Token {
  start: number;
  end: number;
  query: string;
}

export interface Suggestion {
  label: string;
  detail: string;
  /** What replaces the token. */
  insert: string;
}

export interface Completion {
  start: number;
  end: number;
  items: Suggestion[];
}

const space = /\s/;

/** slashToken is the command word when the text starts with "/" and the cursor is in that first word. */
export function slashToken(text: string, cursor: number): Token | undefined {
  if (!text.startsWith('/') || cursor < 1) return undefined;
  const before = text.slice(0, cursor);
  if (space.test(before)) return undefined;
  let end = cursor;
  while (end < text.length && !space.test(text[end])) end++;
  return { start: 0, end, query: before.slice(1) };
}

/**
 * mentionToken is the @mention around the cursor: "@" at the start of the
 * text or after white space, then the word up to the cursor (the query,
 * without "@") and on to its end.
 */
export function mentionToken(text: string, cursor: number): Token | undefined {
  let start = cursor;
  while (start > 0 && !space.test(text[start - 1])) start--;
  if (text[start] !== '@' || start >= cursor) return undefined;
  let end = cursor;
  while (end < text.length && !space.test(text[end])) end++;
  return { start, end, query: text.slice(start + 1, cursor) };
}

/**
 * rank orders candidates by how the query matches key(c): a prefix first,
 * then a word start ("/", "_", "-", "." before it), then anywhere;
 * ties keep the list's order. Case does not matter.
 */
function rank<T>(candidates: readonly T[], query: string, key: (c: T) => string, limit: number): T[] {
  const q = query.toLowerCase();
  const scored: Array<{ c: T; score: number; i: number }> = [];
  candidates.forEach((c, i) => {
    const k = key(c).toLowerCase();
    const at = k.indexOf(q);
    if (at < 0) return;
    let score = 2;
    if (at === 0) score = 0;
    else if (/[/_\-.]/.test(k[at - 1]) || k.split(/[/_\-.]/).some((w) => w.startsWith(q))) score = 1;
    scored.push({ c, score, i });
  });
  scored.sort((a, b) => a.score - b.score || a.i - b.i);
  return scored.slice(0, limit).map((s) => s.c);
}

/** matchCommands are the commands whose name (without its slash) matches the query. */
export function matchCommands(commands: readonly CommandInfo[], query: string, limit = 8): CommandInfo[] {
  return rank(commands, query, (c) => c.name.replace(/^\//, ''), limit);
}

/**
 * matchFiles are the workspace paths (relative, "/"-separated) matching a
 * mention's query: its line range (#L3-5) is not part of the path. The
 * file name counts before the directories: "@ser" finds lsp/server.go
 * before server/x.go only when both start the same way.
 */
export function matchFiles(paths: readonly string[], query: string, limit = 10): string[] {
  const q = query.replace(/#.*$/, '');
  // A path with white space cannot be written as a mention.
  const usable = paths.filter((p) => !space.test(p));
  if (q === '') return usable.slice(0, limit);
  const byName = rank(usable, q, (p) => p.slice(p.lastIndexOf('/') + 1), limit);
  const byPath = rank(usable.filter((p) => !byName.includes(p)), q, (p) => p, limit);
  return [...byName, ...byPath].slice(0, limit);
}

export interface CompletionSources {
  /** The slash commands (agent/commands); called only for a "/" word. */
  commands(): Promise<readonly CommandInfo[]>;
  /** The workspace's files, relative; called only for an "@" word. */
  files(): Promise<readonly string[]>;
}

/**
 * completeAt is what to offer for the text with the cursor at cursor
 * (undefined: nothing). A word already written out in full ("/compact",
 * "/mode ask") gets nothing, so Enter sends it rather than choosing it again.
 */
export async function completeAt(text: string, cursor: number, sources: CompletionSources): Promise<Completion | undefined> {
  const c = await offer(text, cursor, sources);
  if (!c || c.items.length === 0) return undefined;
  const word = text.slice(c.start, c.end);
  return c.items.some((s) => s.insert.trimEnd() === word) ? undefined : c;
}

async function offer(text: string, cursor: number, sources: CompletionSources): Promise<Completion | undefined> {
  const slash = slashToken(text, cursor);
  if (slash) {
    const items = matchCommands(await sources.commands(), slash.query).map((c) => ({
      label: c.name,
      detail: commandDetail(c),
      insert: c.arguments.length > 0 ? `${c.name} ` : c.name,
    }));
    return { start: slash.start, end: slash.end, items };
  }
  const modeArg = /^\/mode\s+(\S*)$/.exec(text.slice(0, cursor));
  if (modeArg) {
    const start = cursor - modeArg[1].length;
    let end = cursor;
    while (end < text.length && !space.test(text[end])) end++;
    const items = modes.filter((m) => m.startsWith(modeArg[1].toLowerCase())).map((m) => ({ label: m, detail: modeDescriptions[m], insert: m }));
    return { start, end, items };
  }
  const mention = mentionToken(text, cursor);
  if (mention) {
    // A line range already written after the cursor is kept.
    const range = /#.*$/.exec(text.slice(mention.start, mention.end))?.[0] ?? '';
    const items = matchFiles(await sources.files(), mention.query).map((p) => ({ label: `@${p}`, detail: '', insert: `@${p}${range} ` }));
    return { start: mention.start, end: mention.end, items };
  }
  return undefined;
}

function commandDetail(c: CommandInfo): string {
  const args = c.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
  return [args, c.description].filter(Boolean).join(' — ');
}
