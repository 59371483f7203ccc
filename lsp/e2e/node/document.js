// A document as the editor holds it: a JS string is UTF-16, so LSP
// positions (UTF-16 code units) index it directly. (review_prompt.js; the
// same as edit_prompt.js's own copy.)
'use strict';

class Document {
  constructor(uri, text) { this.uri = uri; this.text = text; this.version = 1; }

  offsetAt(pos) {
    let line = 0;
    let offset = 0;
    while (line < pos.line) {
      const nl = this.text.indexOf('\n', offset);
      if (nl < 0) return this.text.length; // past the last line: the end, as VS Code clamps it
      offset = nl + 1;
      line++;
    }
    const end = this.text.indexOf('\n', offset);
    const lineLength = (end < 0 ? this.text.length : end) - offset;
    if (pos.character > lineLength) {
      throw new Error(`character ${pos.character} is past the end of line ${pos.line} (${lineLength})`);
    }
    return offset + pos.character;
  }

  // apply applies text edits that are all relative to the text before
  // (LSP), from the end; it returns them as contentChanges in that order.
  apply(edits) {
    const sorted = edits
      .map((e, i) => ({ e, i, start: this.offsetAt(e.range.start), end: this.offsetAt(e.range.end) }))
      .sort((a, b) => b.start - a.start || b.i - a.i);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k].end > sorted[k - 1].start) throw new Error('overlapping text edits');
    }
    let text = this.text;
    for (const s of sorted) text = text.slice(0, s.start) + s.e.newText + text.slice(s.end);
    this.text = text;
    this.version++;
    return sorted.map((s) => ({ range: s.e.range, text: s.e.newText }));
  }
}

module.exports = { Document };
