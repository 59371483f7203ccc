// The one document the protocol test's editor holds open.

export interface Position { line: number; character: number }
export interface TextEdit { range: { start: Position; end: Position }; newText: string }

/** A document as the editor holds it: a JS string is UTF-16, as LSP positions count. */
export class Document {
  version = 1;
  saved: string;
  constructor(readonly uri: string, readonly file: string, public text: string) {
    this.saved = text;
  }

  offsetAt(pos: Position): number {
    let offset = 0;
    for (let line = 0; line < pos.line; line++) {
      const nl = this.text.indexOf('\n', offset);
      if (nl < 0) return this.text.length;
      offset = nl + 1;
    }
    return offset + pos.character;
  }

  apply(edits: TextEdit[]): Array<{ range: TextEdit['range']; text: string }> {
    const sorted = edits
      .map((e, i) => ({ e, i, start: this.offsetAt(e.range.start), end: this.offsetAt(e.range.end) }))
      .sort((a, b) => b.start - a.start || b.i - a.i);
    for (const s of sorted) this.text = this.text.slice(0, s.start) + s.e.newText + this.text.slice(s.end);
    this.version++;
    return sorted.map((s) => ({ range: s.e.range, text: s.e.newText }));
  }
}
