import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Transcript, splitSentPrompt } from '../logic/transcript';
import { renderTranscript } from '../logic/render';
import { applyRestore, restoreOutcome } from '../logic/restore';
import type { TranscriptEntry, TranscriptResult, Update } from '../protocol';

const s = 'sess-7';
const totals = { promptTokens: 2000, completionTokens: 80, cachedTokens: 512, cost: 0.0009 };

// One prompt as the daemon streamed it, and the same prompt as agent/transcript stores it.
const live: Update[] = [
  { sessionId: s, seq: 1, kind: 'reasoning', text: 'Count ' },
  { sessionId: s, seq: 2, kind: 'reasoning', text: 'the lines.' },
  { sessionId: s, seq: 3, kind: 'tool_call', toolCallId: 'c1', name: 'run_bash', arguments: { command: 'wc -l review.go' } },
  { sessionId: s, seq: 4, kind: 'tool_result', toolCallId: 'c1', name: 'run_bash', status: 'completed', output: '15 review.go' },
  { sessionId: s, seq: 5, kind: 'text', text: 'It has ' },
  { sessionId: s, seq: 6, kind: 'text', text: '`15` lines.' },
];
const stored: TranscriptEntry[] = [
  { kind: 'user', text: 'How long is review.go?', checkpointId: 'cp-1' },
  { kind: 'reasoning', text: 'Count the lines.' },
  { kind: 'tool_call', toolCallId: 'c1', name: 'run_bash', arguments: { command: 'wc -l review.go' } },
  { kind: 'tool_result', toolCallId: 'c1', name: 'run_bash', status: 'completed', output: '15 review.go' },
  { kind: 'text', text: 'It has `15` lines.' },
  { kind: 'compacted', summary: 'The user asked for the length: `15` lines.' },
  { kind: 'user', text: 'Rename it.\n\nSelected text in review.go (lines 3-3):\n```\nfunc oldName() {}\n```\n\nAttached notes.md:\n```\nx\n```' },
  { kind: 'tool_call', toolCallId: 'c2', name: 'edit_file', arguments: { path: 'review.go' } },
  { kind: 'tool_result', toolCallId: 'c2', name: 'edit_file', status: 'denied', output: 'the user rejected the edit' },
];
const result: TranscriptResult = { sessionId: s, title: 'How long', mode: 'default', entries: stored, plan: [], totals };

test('a loaded transcript draws exactly as the live updates drew it', () => {
  const streamed = new Transcript();
  streamed.addPrompt('How long is review.go?');
  for (const u of live) streamed.apply(u);
  const loaded = new Transcript();
  loaded.load(stored.slice(0, 5));
  assert.equal(renderTranscript(loaded.entries), renderTranscript(streamed.entries));
  assert.ok(renderTranscript(loaded.entries).includes('<code>15</code>'));
});

test('load replaces what was there, keeps tool statuses and takes the session totals', () => {
  const t = new Transcript();
  t.addNotice('an old line');
  t.load(stored, totals);
  assert.deepEqual(t.entries.map((e) => e.kind), ['prompt', 'reasoning', 'tool', 'text', 'summary', 'prompt', 'tool']);
  assert.deepEqual(t.entries[5], { kind: 'prompt', text: 'Rename it.', context: 'review.go (lines 3-3), notes.md' });
  const html = renderTranscript(t.entries);
  assert.ok(html.includes('History compacted') && html.includes('<code>15</code>'), html);
  assert.ok(!html.includes('func oldName'), 'the attached text is not drawn as the prompt');
  const cards = t.entries.filter((e) => e.kind === 'tool');
  assert.deepEqual(cards.map((c) => (c.kind === 'tool' ? [c.name, c.detail, c.status, c.output] : [])), [
    ['run_bash', '$ wc -l review.go', 'completed', '15 review.go'],
    ['edit_file', 'review.go', 'denied', 'the user rejected the edit'],
  ]);
  assert.deepEqual(t.totals, totals);
  // A live result after the load still settles the restored card it belongs to.
  t.load([{ kind: 'tool_call', toolCallId: 'c3', name: 'grep', arguments: { pattern: 'x' } }]);
  t.apply({ sessionId: s, seq: 9, kind: 'tool_result', toolCallId: 'c3', name: 'grep', status: 'failed', output: 'boom' });
  assert.equal(t.entries.length, 1);
  assert.deepEqual(t.entries[0], { kind: 'tool', toolCallId: 'c3', name: 'grep', detail: 'x', status: 'failed', output: 'boom' });
});

test('splitSentPrompt: the words typed, and what was attached', () => {
  assert.deepEqual(splitSentPrompt('just words'), { prompt: 'just words' });
  assert.deepEqual(splitSentPrompt('a\n\nb'), { prompt: 'a\n\nb' });
  assert.deepEqual(splitSentPrompt('fix\n\nAttached a.go (lines 1-2):\n```\nx\n```'), { prompt: 'fix', context: 'a.go (lines 1-2)' });
  // "Attached" in the user's own words, without the fenced block, stays.
  assert.deepEqual(splitSentPrompt('see\n\nAttached below: nothing'), { prompt: 'see\n\nAttached below: nothing' });
});

test('entries of kinds this version does not know are left out', () => {
  const t = new Transcript();
  t.load([{ kind: 'user', text: 'hi' }, { kind: 'hologram', text: '?' } as unknown as TranscriptEntry, { kind: 'text', text: 'hello' }]);
  assert.deepEqual(t.entries, [{ kind: 'prompt', text: 'hi' }, { kind: 'text', text: 'hello' }]);
});

test('restoreOutcome: an answer, an old daemon, an unknown session, a daemon down', () => {
  assert.deepEqual(restoreOutcome(result), { kind: 'restored', title: 'How long', entries: stored.length });
  const rpc = (code: number, message: string): Error => Object.assign(new Error(message), { code });
  assert.deepEqual(restoreOutcome(undefined, rpc(-32601, 'Unhandled method agent/transcript')), { kind: 'unsupported' });
  assert.deepEqual(restoreOutcome(undefined, rpc(-32602, `invalid params: unknown session "${s}"`)), { kind: 'gone' });
  assert.deepEqual(restoreOutcome(undefined, rpc(-32602, 'invalid params: sessionId is required')), { kind: 'failed', message: 'invalid params: sessionId is required' });
  assert.deepEqual(restoreOutcome(undefined, new Error('the daemon is not running')), { kind: 'failed', message: 'the daemon is not running' });
});

test('applyRestore: the chat shows the conversation, or says what the next prompt does', () => {
  const t = new Transcript();
  t.addPrompt('typed before the reload');
  assert.equal(applyRestore(t, restoreOutcome(result), result, s), 'Session "How long" restored.');
  assert.equal(t.entries.length, 7);

  const empty: TranscriptResult = { ...result, entries: [] };
  assert.equal(applyRestore(t, restoreOutcome(empty), empty, s), undefined);
  assert.equal(t.entries.length, 0);

  for (const [err, want, kept] of [
    [Object.assign(new Error('x'), { code: -32601 }), /cannot send its history/, 1],
    [Object.assign(new Error(`unknown session "${s}"`), { code: -32602 }), /next prompt starts a new one/, 0],
    [new Error('down'), /could not be redrawn \(down\); the next prompt continues it/, 1],
  ] as const) {
    t.clear();
    t.addPrompt('on screen before the daemon restarted');
    const note = applyRestore(t, restoreOutcome(undefined, err), undefined, s);
    assert.match(note ?? '', want);
    assert.ok(note?.includes(s));
    assert.equal(t.entries.length, kept, 'only a session that is gone is wiped; otherwise the screen is all there is');
  }
});
