import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Transcript, lineRange, toolDetail } from '../logic/transcript';
import { escapeHtml, renderEntry, renderPage, renderTranscript, richText } from '../logic/render';
import type { Update } from '../protocol';

const s = 'sess-1';
const totals = { promptTokens: 900, completionTokens: 40, cachedTokens: 0, cost: 0.00031 };
const updates: Update[] = [
  { sessionId: s, seq: 1, kind: 'reasoning', text: 'The user wants ' },
  { sessionId: s, seq: 2, kind: 'reasoning', text: 'a shout.' },
  { sessionId: s, seq: 3, kind: 'tool_call', toolCallId: 'c1', name: 'edit_file', arguments: { path: 'demo.go', old_string: 'a', new_string: 'b' } },
  { sessionId: s, seq: 4, kind: 'round_end', stopReason: 'tool_use', usage: { promptTokens: 900, completionTokens: 40, cachedTokens: 0 }, cost: 0.00031, totals },
  { sessionId: s, seq: 5, kind: 'tool_result', toolCallId: 'c1', name: 'edit_file', status: 'completed', output: 'edited demo.go' },
  { sessionId: s, seq: 6, kind: 'text', text: 'Done: ' },
  { sessionId: s, seq: 7, kind: 'text', text: '<b>shouted</b>.' },
];

test('updates fold into entries: deltas coalesce, results settle their tool card', () => {
  const t = new Transcript();
  assert.equal(t.addPrompt('Shout it', 'demo.go:2-2'), 0);
  const changed = updates.map((u) => t.apply(u));
  assert.deepEqual(changed, [[1], [1], [2], [3], [2], [4], [4]]);
  assert.deepEqual(t.entries, [
    { kind: 'prompt', text: 'Shout it', context: 'demo.go:2-2' },
    { kind: 'reasoning', text: 'The user wants a shout.' },
    { kind: 'tool', toolCallId: 'c1', name: 'edit_file', detail: 'demo.go', status: 'completed', output: 'edited demo.go' },
    { kind: 'round', usage: { promptTokens: 900, completionTokens: 40, cachedTokens: 0 }, cost: 0.00031 },
    { kind: 'text', text: 'Done: <b>shouted</b>.' },
  ]);
  assert.deepEqual(t.totals, totals);
});

test('finish settles running tool cards and notes a cancellation', () => {
  const t = new Transcript();
  t.apply({ sessionId: s, seq: 1, kind: 'tool_call', toolCallId: 'c9', name: 'run_bash', arguments: { command: 'sleep 100' } });
  assert.deepEqual(t.finish({ stopReason: 'cancelled' }), [0, 1]);
  assert.deepEqual(t.entries[0], { kind: 'tool', toolCallId: 'c9', name: 'run_bash', detail: '$ sleep 100', status: 'denied', output: 'cancelled' });
  assert.deepEqual(t.entries[1], { kind: 'notice', text: 'Cancelled.' });
  assert.deepEqual(new Transcript().finish({ stopReason: 'end_turn' }), []);
  const failed = new Transcript();
  failed.finish({ stopReason: 'error', error: 'HTTP 401' });
  assert.deepEqual(failed.entries, [{ kind: 'notice', text: 'Failed: HTTP 401' }]);
});

test('a tool result without its call gets a card of its own', () => {
  const t = new Transcript();
  t.apply({ sessionId: s, seq: 1, kind: 'tool_result', toolCallId: 'x', name: 'grep', status: 'failed', output: 'bad pattern' });
  assert.equal(t.entries[0].kind, 'tool');
});

test('an update kind this version does not know changes nothing, nor does the plan (it has its own view)', () => {
  const t = new Transcript();
  assert.deepEqual(t.apply({ sessionId: s, seq: 1, kind: 'hologram', items: [] } as unknown as Update), []);
  assert.deepEqual(t.apply({ sessionId: s, seq: 2, kind: 'plan', items: [{ content: 'a', status: 'pending' }] }), []);
  assert.deepEqual(t.entries, []);
});

test('mode, model and mention updates are shown; a mention not attached says why', () => {
  const t = new Transcript();
  t.addPrompt('see @src/x.go#L3-5 and @gone.go and @../outside');
  const changed = [
    t.apply({ sessionId: s, seq: 1, kind: 'mention', path: 'src/x.go', startLine: 3, endLine: 5, status: 'attached' }),
    t.apply({ sessionId: s, seq: 2, kind: 'mention', path: 'gone.go', status: 'missing', message: 'no such file' }),
    t.apply({ sessionId: s, seq: 3, kind: 'mention', path: '../outside', status: 'refused', message: 'outside the workspace <root>' }),
    t.apply({ sessionId: s, seq: 4, kind: 'mode', mode: 'ask' }),
    t.apply({ sessionId: s, seq: 5, kind: 'model', provider: 'anthropic', model: 'deepseek-pro', baseURL: 'https://api.deepseek.com/anthropic' }),
  ];
  assert.deepEqual(changed, [[1], [2], [3], [4], [5]]);
  assert.deepEqual(t.entries.slice(1), [
    { kind: 'mention', path: 'src/x.go', lines: 'lines 3-5', status: 'attached' },
    { kind: 'mention', path: 'gone.go', lines: '', status: 'missing', message: 'no such file' },
    { kind: 'mention', path: '../outside', lines: '', status: 'refused', message: 'outside the workspace <root>' },
    { kind: 'setting', text: 'Mode: ask' },
    { kind: 'setting', text: 'Model: deepseek-pro (anthropic)' },
  ]);
  const html = t.entries.map((e, i) => renderEntry(e, i));
  assert.equal(html[1], '<div class="entry mention attached" data-i="1">Attached src/x.go (lines 3-5)</div>');
  assert.equal(html[2], '<div class="entry mention missing" data-i="2">Not attached: gone.go — no such file: no such file</div>');
  assert.equal(html[3], '<div class="entry mention refused" data-i="3">Not attached: ../outside — outside the workspace: outside the workspace &lt;root&gt;</div>');
  assert.equal(html[4], '<div class="entry setting" data-i="4">Mode: ask</div>');
});

test('a built-in command answers in the result; an MCP prompt\'s streamed answer is not repeated', () => {
  const t = new Transcript();
  t.addPrompt('/mode');
  assert.deepEqual(t.finish({ stopReason: 'end_turn', command: '/mode', text: 'Modes: `ask`, plan' }), [1]);
  assert.deepEqual(t.entries[1], { kind: 'command', name: '/mode', text: 'Modes: `ask`, plan' });
  assert.match(renderEntry(t.entries[1], 1), /<div class="tool-name">\/mode<\/div><div class="body markdown"><p>Modes: <code>ask<\/code>, plan<\/p>/);
  t.addPrompt('/mcp__everything__simple_prompt');
  t.apply({ sessionId: s, seq: 1, kind: 'text', text: 'Streamed.' });
  assert.deepEqual(t.finish({ stopReason: 'end_turn', command: '/mcp__everything__simple_prompt', text: 'Streamed.' }), []);
  assert.deepEqual(t.finish({ stopReason: 'end_turn', text: 'plain prompt' }), []);
});

test('lineRange', () => {
  assert.equal(lineRange(), '');
  assert.equal(lineRange(3), 'line 3');
  assert.equal(lineRange(3, 3), 'line 3');
  assert.equal(lineRange(3, 5), 'lines 3-5');
});

test('toolDetail shows the gist of the arguments', () => {
  assert.equal(toolDetail({ command: 'go test ./...' }), '$ go test ./...');
  assert.equal(toolDetail({ path: 'a.go', content: 'x' }), 'a.go');
  assert.equal(toolDetail({ pattern: 'func \\w+', path: 'lsp' }), 'func \\w+ in lsp');
  assert.equal(toolDetail('{broken'), '{broken');
  assert.equal(toolDetail({ n: 1 }), '{"n":1}');
  assert.equal(toolDetail({ command: 'x'.repeat(300) }).length, 160);
});

test('everything from the model or a tool is escaped', () => {
  const t = new Transcript();
  t.addPrompt('<script>alert(1)</script>');
  updates.forEach((u) => t.apply(u));
  t.apply({ sessionId: s, seq: 8, kind: 'tool_call', toolCallId: 'c2', name: '<img src=x onerror=alert(1)>', arguments: { path: '"><svg onload=alert(1)>' } });
  t.apply({ sessionId: s, seq: 9, kind: 'error', message: '<iframe>' });
  const html = renderTranscript(t.entries);
  assert.doesNotMatch(html, /<script|<img|<svg|<iframe|<b>/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /&lt;b&gt;shouted&lt;\/b&gt;/);
  assert.match(html, /&quot;&gt;&lt;svg onload=alert\(1\)&gt;/);
});

test('entries render with their index, kind and status', () => {
  assert.equal(renderEntry({ kind: 'reasoning', text: 'hm' }, 3), '<div class="entry reasoning" data-i="3"><div class="body">hm</div></div>');
  const card = renderEntry({ kind: 'tool', toolCallId: 'c', name: 'read_file', detail: 'a.go', status: 'running' }, 0);
  assert.match(card, /class="entry tool running"/);
  assert.match(card, /running…/);
  assert.doesNotMatch(card, /<details>/);
  assert.equal(renderEntry({ kind: 'round', usage: { promptTokens: 12345, completionTokens: 40, cachedTokens: 896 }, cost: 0.00031 }, 1),
    '<div class="entry round" data-i="1">12.3k in (896 cached) · 40 out · $0.0003</div>');
  assert.match(renderEntry({ kind: 'tool', toolCallId: 'c', name: 'grep', detail: '', status: 'completed', output: 'x'.repeat(5000) }, 0),
    /… \(1000 more characters\)/);
});

test('richText renders markdown: fences and inline code, escaped, and an unclosed fence while streaming', () => {
  const done = richText('Run `go test`:\n```sh\ngo test <x>\n```\nok');
  assert.match(done, /<p>Run <code>go test<\/code>:<\/p>/);
  assert.match(done, /<code class="hljs language-sh">go <span class="hljs-built_in">test<\/span> &lt;x&gt;\n<\/code>/);
  assert.match(done, /<p>ok<\/p>/);
  assert.match(richText('see\n```go\nfunc main() {'), /<p>see<\/p>\n<div class="codeblock">.*<span class="hljs-keyword">func<\/span>/s);
  assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
});

test('the page admits only its own nonce and the webview source, and no external resource', () => {
  const page = renderPage({ nonce: 'abc', cspSource: 'vscode-webview://x', scriptUri: 'vscode-webview://x/chat.js', transcriptHtml: '<div>t</div>' });
  assert.match(page, /content="default-src 'none'; style-src 'nonce-abc'; script-src vscode-webview:\/\/x 'nonce-abc'; img-src data:;"/);
  assert.match(page, /<script nonce="abc" src="vscode-webview:\/\/x\/chat.js"><\/script>/);
  assert.doesNotMatch(page, /https?:/);
  assert.doesNotMatch(renderPage({ nonce: 'n', cspSource: '', transcriptHtml: '' }), /<script/);
});
