// Streaming answers rendered in time linear in their length. Re-rendering
// the whole answer on every delta costs O(n²): a 200 KB answer in 2,000
// deltas would parse 200 MB. Instead every top-level block but the last is
// final once the next one has begun (CommonMark never lets later text
// reopen a closed block), so it is rendered once and kept; only the last
// block, the tail, is parsed again on each delta. The webview appends the
// new final blocks and replaces only the tail, so nothing above flickers.
//
// One difference from rendering the whole text at once: a link reference
// definition ("[x]: https://…") applies only to the blocks parsed with it.

import type MarkdownIt = require('markdown-it');
import { createMarkdown, type PathResolver } from './markdown';

export interface RenderedAnswer {
  /** The final blocks' HTML, in order; only ever appended to while the text grows. */
  blocks: readonly string[];
  /** The last block's HTML, which the next delta may change. */
  tail: string;
  /** The text did not extend the one rendered before: blocks start over. */
  restarted: boolean;
}

/** How much of the rendered text before the tail extends() compares. */
const seam = 256;

export class StreamingMarkdown {
  private text = '';
  /** Where in text the tail begins: everything before is in blocks. */
  private tailStart = 0;
  private readonly blocks: string[] = [];
  private tail = '';
  private rendered = false;
  /** Characters parsed so far: the measure of the work (render tests hold it linear). */
  parsedChars = 0;

  constructor(private readonly md: MarkdownIt.MarkdownIt) {}

  render(text: string): RenderedAnswer {
    let restarted = false;
    if (this.rendered && text === this.text) return { blocks: this.blocks, tail: this.tail, restarted };
    if (!this.extends(text)) {
      this.blocks.length = 0;
      this.tailStart = 0;
      restarted = true;
    }
    this.text = text;
    this.rendered = true;
    const source = text.slice(this.tailStart);
    this.parsedChars += source.length;
    const env = {};
    const tokens = this.md.parse(source, env);
    const starts: number[] = [];
    tokens.forEach((t, i) => {
      if (t.level === 0 && t.nesting !== -1 && t.map) starts.push(i);
    });
    let tailTokens = tokens;
    if (starts.length >= 2) {
      const cut = starts[starts.length - 1];
      this.blocks.push(this.md.renderer.render(tokens.slice(0, cut), this.md.options, env));
      this.tailStart += lineOffset(source, tokens[cut].map![0]);
      tailTokens = tokens.slice(cut);
    }
    this.tail = this.md.renderer.render(tailTokens, this.md.options, env);
    return { blocks: this.blocks, tail: this.tail, restarted };
  }

  /**
   * extends says text is the text rendered before with more appended. An
   * answer only grows (Transcript.apply appends deltas; a loaded transcript
   * is new entries), so a full comparison, O(n) per delta and O(n²) in all,
   * buys nothing: the length and the stretch before the tail, where a
   * rewrite would first show, are compared instead.
   */
  private extends(text: string): boolean {
    if (text.length < this.text.length) return false;
    const from = Math.max(0, this.tailStart - seam);
    return text.startsWith(this.text.slice(from, this.text.length), from);
  }
}

/** lineOffset is where line n (0-based) of s begins, counting line breaks as markdown-it does (\r\n, \r, \n). */
export function lineOffset(s: string, n: number): number {
  const br = /\r\n|\r|\n/g;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const m = br.exec(s);
    if (!m) return s.length;
    at = m.index + m[0].length;
  }
  return at;
}

/**
 * AnswerRenderer renders the chat's markdown for one workspace: answers
 * that stream (one StreamingMarkdown per transcript entry, dropped with
 * the entry) and texts that arrive whole.
 */
export class AnswerRenderer {
  private readonly streams = new WeakMap<object, StreamingMarkdown>();
  readonly md: MarkdownIt.MarkdownIt;

  constructor(resolve: PathResolver = () => undefined) {
    this.md = createMarkdown(resolve);
  }

  /** stream renders the current text of the answer entry, reusing what earlier calls rendered. */
  stream(entry: object, text: string): RenderedAnswer {
    let s = this.streams.get(entry);
    if (!s) {
      s = new StreamingMarkdown(this.md);
      this.streams.set(entry, s);
    }
    return s.render(text);
  }

  html(text: string): string {
    return this.md.render(text);
  }
}
