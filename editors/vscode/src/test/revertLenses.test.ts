import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collapseRevertLenses, type LensLike } from '../logic/revertLenses';

type Lens = LensLike<number>;
const revert = (line: number, checkpointId = 'c1', sessionId = 's1', uri = 'file:///w/a.go'): Lens => ({
  range: line,
  command: { title: 'Revert agent change', command: 'agent.revert', arguments: [{ uri, sessionId, checkpointId, range: { line } }] },
});
const make = (range: number, title: string, args: unknown): Lens => ({ range, command: { title, command: 'agent.revert', arguments: [args] } });

test('the revert lenses of a file and session become one, over the first region, reverting the whole file', () => {
  const other: Lens = { range: 1, command: { title: 'Run test', command: 'go.test' } };
  const got = collapseRevertLenses([other, revert(3), revert(9), revert(20)], make);
  assert.equal(got.length, 2);
  assert.equal(got[0], other);
  assert.equal(got[1].range, 3);
  assert.equal(got[1].command?.title, 'Revert 3 agent changes in this file');
  assert.deepEqual(got[1].command?.arguments, [{ uri: 'file:///w/a.go', sessionId: 's1', checkpointId: 'c1' }], 'no range: the whole file');
});

test('a single region keeps its own lens; sessions and files are kept apart', () => {
  const one = revert(5);
  assert.deepEqual(collapseRevertLenses([one], make), [one]);
  const got = collapseRevertLenses([revert(1, 'c1', 's1'), revert(2, 'c9', 's2'), revert(4, 'c1', 's1'), revert(7, 'c1', 's1', 'file:///w/b.go')], make);
  assert.deepEqual(got.map((l) => [l.range, l.command?.title]), [
    [1, 'Revert 2 agent changes in this file'],
    [2, 'Revert agent change'],
    [7, 'Revert agent change'],
  ]);
});

test('a lens without a checkpoint is left as the daemon sent it', () => {
  const odd: Lens = { range: 1, command: { title: 'Revert agent change', command: 'agent.revert', arguments: [{ uri: 'file:///w/a.go' }] } };
  assert.deepEqual(collapseRevertLenses([odd, odd], make), [odd, odd]);
});
