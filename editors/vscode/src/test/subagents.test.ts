import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Transcript } from '../logic/transcript';
import { renderEntry } from '../logic/render';
import { childTranscriptMarkdown } from '../logic/childTranscript';
import type { Update } from '../protocol';

const s = 's1';
const usage = { promptTokens: 1200, completionTokens: 80, cachedTokens: 1000 };
const totals = { promptTokens: 5000, completionTokens: 300, cachedTokens: 1000, cost: 0.01 };

// Two children of one turn, interleaved as parallel children are; the
// child's tool call ids repeat the parent's (each model numbers its own).
const updates: Update[] = [
  { sessionId: s, seq: 1, kind: 'tool_call', toolCallId: 'call_0', name: 'task', arguments: { description: 'Find the parser', prompt: 'Where is Parse?' } },
  { sessionId: s, seq: 2, kind: 'tool_call', toolCallId: 'call_1', name: 'task', arguments: { description: 'Find the tests', prompt: 'Which tests?' } },
  { sessionId: s, seq: 3, kind: 'tool_call', toolCallId: 'call_0', name: 'grep', arguments: { pattern: 'func Parse' }, parentToolCallId: 'call_0' },
  { sessionId: s, seq: 4, kind: 'round_end', stopReason: 'tool_calls', usage, cost: 0.002, totals, parentToolCallId: 'call_0' },
  { sessionId: s, seq: 5, kind: 'text', text: 'Tests are in ', parentToolCallId: 'call_1' },
  { sessionId: s, seq: 6, kind: 'tool_result', toolCallId: 'call_0', name: 'grep', status: 'completed', output: 'parse.go:3', parentToolCallId: 'call_0' },
  { sessionId: s, seq: 7, kind: 'text', text: 'parse_test.go.', parentToolCallId: 'call_1' },
  { sessionId: s, seq: 8, kind: 'text', text: 'Parse is in <parse.go>.', parentToolCallId: 'call_0' },
  { sessionId: s, seq: 9, kind: 'round_end', stopReason: 'end_turn', usage, cost: 0.002, totals, parentToolCallId: 'call_0' },
  { sessionId: s, seq: 10, kind: 'tool_result', toolCallId: 'call_0', name: 'task', status: 'completed', output: 'Parse is in parse.go.\nFiles touched: none' },
];

test("a child's updates fold under its task call, not into the parent's transcript", () => {
  const t = new Transcript();
  t.addPrompt('investigate');
  const changed = updates.map((u) => t.apply(u));
  assert.deepEqual(changed, [[1], [2], [1], [1], [2], [1], [2], [1], [1], [1]]);
  assert.equal(t.entries.length, 3, 'nothing of the children lands in the parent transcript');
  const first = t.entries[1];
  assert.ok(first.kind === 'tool' && first.child);
  assert.equal(first.status, 'completed');
  assert.equal(first.detail, 'Find the parser');
  assert.deepEqual(first.child.entries, [
    { kind: 'tool', toolCallId: 'call_0', name: 'grep', detail: 'func Parse', status: 'completed', output: 'parse.go:3' },
    { kind: 'text', text: 'Parse is in <parse.go>.' },
  ]);
  assert.deepEqual(first.child.usage, { promptTokens: 2400, completionTokens: 160, cachedTokens: 2000 });
  assert.equal(first.child.calls, 2);
  assert.equal(first.child.cost, 0.004);
  const second = t.entries[2];
  assert.ok(second.kind === 'tool' && second.child);
  assert.deepEqual(second.child.entries, [{ kind: 'text', text: 'Tests are in parse_test.go.' }]);
  assert.equal(second.status, 'running');
  assert.deepEqual(t.totals, totals, "the session's totals include the children");
});

test('the task card renders the child indented, its usage line and the transcript button, escaped', () => {
  const t = new Transcript();
  updates.forEach((u) => t.apply(u));
  const html = renderEntry(t.entries[0], 0);
  assert.match(html, /class="entry tool completed task"/);
  assert.match(html, /<details class="child" open><summary>Subagent · 1 tool call<\/summary>/);
  assert.match(html, /class="child-tool completed"><span class="tool-name">grep<\/span>/);
  assert.ok(html.includes('Parse is in &lt;parse.go&gt;.'));
  assert.match(html, /2 model calls · 2.4k in \(2k cached\) · 160 out · \$0\.0040/);
  assert.match(html, /data-child-transcript="call_0">Open transcript/);
  assert.doesNotMatch(renderEntry({ kind: 'tool', toolCallId: 'x', name: 'grep', detail: '', status: 'running' }, 0), /child/);
});

test('a child update whose task call is not shown gets a card; a cancel settles the child too', () => {
  const t = new Transcript();
  t.apply({ sessionId: s, seq: 1, kind: 'tool_call', toolCallId: 'c7', name: 'read_file', arguments: { path: 'a.go' }, parentToolCallId: 'call_9' });
  assert.equal(t.entries.length, 1);
  const card = t.entries[0];
  assert.ok(card.kind === 'tool' && card.child && card.name === 'task');
  t.finish({ stopReason: 'cancelled' });
  assert.equal(card.status, 'denied');
  assert.deepEqual(card.child.entries[0], { kind: 'tool', toolCallId: 'c7', name: 'read_file', detail: 'a.go', status: 'denied', output: 'cancelled' });
});

test("the child's transcript shows as Markdown whose fences its output cannot close", () => {
  const md = childTranscriptMarkdown({
    entries: [
      { kind: 'user', text: 'Where is Parse?' },
      { kind: 'tool_call', toolCallId: 'c1', name: 'grep', arguments: { pattern: 'Parse' } },
      { kind: 'tool_result', toolCallId: 'c1', name: 'grep', status: 'completed', output: 'x ``` y' },
      { kind: 'text', text: 'In parse.go.' },
    ],
    totals: { promptTokens: 10, completionTokens: 2, cachedTokens: 0 },
  }, 'Find the parser');
  assert.match(md, /^# Subagent: Find the parser/);
  assert.ok(md.includes('````text\nx ``` y\n````'), md);
  assert.ok(md.includes('**grep** Parse'));
  assert.ok(md.includes('In parse.go.'));
});
