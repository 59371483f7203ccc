import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpointItems, rewindOptionItems, rewindParams, rewindSummary } from '../logic/checkpoints';

test('checkpointItems: newest first, numbered oldest first as /rewind does, the files changed', () => {
  const items = checkpointItems(
    [
      { checkpointId: 'c1', prompt: 'Rename oldName.\nEverywhere.', createdAt: '2026-01-02T10:00:00Z', files: ['a.go', 'b.go'] },
      { checkpointId: 'c2', prompt: 'Explain ' + 'x'.repeat(100), createdAt: '2026-01-02T11:00:00Z', files: [] },
    ],
    (t) => `at ${t.slice(11, 16)}`,
  );
  assert.deepEqual(items.map((i) => [i.checkpointId, i.label.slice(0, 12), i.description, i.detail]), [
    ['c2', '2. Explain x', 'at 11:00', 'changed no files'],
    ['c1', '1. Rename ol', 'at 10:00', 'changed a.go, b.go'],
  ]);
  assert.equal(items[1].label, '1. Rename oldName.');
  assert.equal(items[0].label.length, 3 + 80);
  assert.ok(items[0].label.endsWith('…'));
});

test('rewindParams: the picked options; none picked is no rewind', () => {
  assert.deepEqual(rewindOptionItems().map((o) => [o.option, o.picked]), [['restoreFiles', true], ['truncateConversation', true]]);
  assert.deepEqual(rewindParams('s', 'c', ['restoreFiles', 'truncateConversation']), { sessionId: 's', checkpointId: 'c', restoreFiles: true, truncateConversation: true });
  assert.deepEqual(rewindParams('s', 'c', ['truncateConversation']), { sessionId: 's', checkpointId: 'c', restoreFiles: false, truncateConversation: true });
  assert.equal(rewindParams('s', 'c', []), undefined);
});

test('rewindSummary: what was restored, deleted, merged, dropped, and the conflicts', () => {
  assert.deepEqual(
    rewindSummary({
      restored: [{ path: 'a.go', action: 'restored' }, { path: 'new.go', action: 'deleted' }, { path: 'b.go', action: 'restored' }],
      conflicts: [],
      droppedMessages: 4,
      droppedCheckpoints: 1,
    }),
    { message: 'Restored a.go, b.go; deleted new.go; dropped 4 messages of the conversation; 1 checkpoint dropped.', warning: false },
  );
  assert.deepEqual(rewindSummary({ restored: [{ path: 'a.go', action: 'merged' }], conflicts: [{ path: 'c.go', reason: 'the user changed the same lines' }] }), {
    message: 'Merged a.go. Left as they are: c.go (the user changed the same lines).',
    warning: true,
  });
  assert.deepEqual(rewindSummary({ restored: [], conflicts: [] }), { message: 'Nothing to change.', warning: false });
});
