import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageQueue, queuedAnswerShown, sendDelivery } from '../logic/queue';
import { queueHtml } from '../logic/renderChild';
import { Transcript } from '../logic/transcript';
import { renderEntry, renderPage } from '../logic/render';
import { statusView } from '../logic/status';
import { promptParams } from '../protocol';

test('Enter queues and the steer key steers while a prompt runs; idle, both send as before', () => {
  assert.equal(sendDelivery(true, false), 'queue');
  assert.equal(sendDelivery(true, true), 'steer');
  assert.equal(sendDelivery(false, false), undefined);
  assert.equal(sendDelivery(false, true), undefined);
  assert.deepEqual(promptParams('next', { sessionId: 's1', delivery: 'steer' }), { prompt: 'next', sessionId: 's1', delivery: 'steer' });
  assert.deepEqual(promptParams('next', { sessionId: 's1' }), { prompt: 'next', sessionId: 's1' });
});

test('a queued prompt leaving the queue started, unless this editor removed it', () => {
  const q = new MessageQueue();
  const a = { id: 'q1', prompt: 'then add tests', delivery: 'queue' as const };
  const c = { id: 'q3', prompt: 'and a changelog', delivery: 'queue' as const };
  assert.deepEqual(q.update([a, c]), []);
  assert.equal(q.length, 2);
  // An edit changes the text, nothing leaves.
  assert.deepEqual(q.update([{ ...a, prompt: 'then add unit tests' }, c]), []);
  assert.equal(q.find('q1')?.prompt, 'then add unit tests');
  // q3 removed from here: its leaving is no start, q1's is.
  q.removed('q3');
  assert.deepEqual(q.update([]), [{ ...a, prompt: 'then add unit tests' }]);
  assert.deepEqual(q.update(null), []);
});

test('a steer message that left the queue is delivered, runs as the next prompt, or was dropped', () => {
  const steer = { id: 'q2', prompt: 'use the new API', delivery: 'steer' as const };
  // Delivered: the steer update follows; the output after it is the turn's own.
  const delivered = new MessageQueue();
  delivered.update([steer]);
  assert.deepEqual(delivered.update([]), [], 'a steer leaving is not a start');
  delivered.delivered('q2');
  assert.deepEqual(delivered.outputStarted(), []);
  // The turn ended before a safe point: the next output is the steer run as a prompt.
  const ran = new MessageQueue();
  ran.update([steer]);
  ran.update([]);
  assert.deepEqual(ran.outputStarted(), [steer]);
  assert.deepEqual(ran.outputStarted(), [], 'drawn once');
  // A cancel dropped it: its answer says removed, or a queued prompt starts (a steer runs first).
  const dropped = new MessageQueue();
  dropped.update([steer]);
  dropped.update([]);
  dropped.dropped('use the new API');
  assert.deepEqual(dropped.outputStarted(), []);
  const overtaken = new MessageQueue();
  const next = { id: 'q3', prompt: 'next', delivery: 'queue' as const };
  overtaken.update([steer, next]);
  overtaken.update([next]);
  assert.deepEqual(overtaken.update([]), [next]);
  assert.deepEqual(overtaken.outputStarted(), []);
});

test('a removed or steered prompt ends nothing shown; any other answer does', () => {
  assert.equal(queuedAnswerShown({ stopReason: 'steered', text: '' }), false);
  assert.equal(queuedAnswerShown({ stopReason: 'cancelled', text: '', notice: 'removed from the queue' }), false);
  assert.equal(queuedAnswerShown({ stopReason: 'cancelled', text: '' }), true);
  assert.equal(queuedAnswerShown({ stopReason: 'end_turn', text: 'done' }), true);
});

test('a steer message shows once, from the queue or the steer update, where it was delivered', () => {
  const t = new Transcript();
  t.addPrompt('rename the parser');
  t.apply({ sessionId: 's', seq: 1, kind: 'tool_call', toolCallId: 'c1', name: 'grep', arguments: { pattern: 'Parse' } });
  assert.equal(t.addSteer('q2', 'keep the old name as an alias'), 2);
  assert.deepEqual(t.apply({ sessionId: 's', seq: 2, kind: 'steer', id: 'q2', prompt: 'keep the old name as an alias' }), []);
  assert.deepEqual(t.apply({ sessionId: 's', seq: 3, kind: 'steer', id: 'q9', prompt: 'from another client' }), [3]);
  assert.deepEqual(t.apply({ sessionId: 's', seq: 4, kind: 'queue', items: [] }), []);
  assert.deepEqual(t.entries.map((e) => e.kind), ['prompt', 'tool', 'steer', 'steer']);
  const html = renderEntry(t.entries[2], 2);
  assert.match(html, /class="entry steer"/);
  assert.match(html, /You · steer/);
});

test('the waiting messages render dimmed with edit and remove buttons, escaped', () => {
  const html = queueHtml([
    { id: 'q1', prompt: 'then <b>add</b> tests', delivery: 'queue' },
    { id: 'q"2', prompt: 'stop', delivery: 'steer' },
  ]);
  assert.match(html, /class="queued queue" data-queue-id="q1"/);
  assert.match(html, />Queued</);
  assert.match(html, /class="queued steer" data-queue-id="q&quot;2"/);
  assert.match(html, /data-queue-action="edit"/);
  assert.match(html, /data-queue-action="remove"/);
  assert.ok(html.includes('then &lt;b&gt;add&lt;/b&gt; tests'));
  assert.equal(queueHtml([]), '');
  const page = renderPage({ nonce: 'n', cspSource: '', transcriptHtml: '', queueHtml: html });
  assert.match(page, /<div id="queue"><div class="queued queue"/);
  assert.match(page, /id="steer"[^>]*hidden>Steer</);
});

test('the status bar counts the waiting messages', () => {
  const v = statusView({ progress: 'Running grep', queued: 2 });
  assert.match(v.text, /· 2 queued$/);
  assert.match(v.tooltip, /2 messages waiting in the queue/);
  assert.doesNotMatch(statusView({ queued: 0 }).text, /queued/);
});
