// The client's terminals and buffers behave as the spec says an editor's do.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Buffers, Terminals } from './editor.mjs';
import { failures } from './lib.mjs';

test('a terminal runs its command, keeps the end of its output within the limit, and is released', async () => {
  const terms = new Terminals();
  const { terminalId } = terms.create({ sessionId: 's', command: 'sh', args: ['-c', 'printf "héllo wörld"; exit 3'], outputByteLimit: 4 });
  assert.deepEqual(await terms.waitForExit({ sessionId: 's', terminalId }), { exitCode: 3, signal: null });
  const out = terms.output({ sessionId: 's', terminalId });
  assert.equal(out.truncated, true);
  assert.equal(out.output, 'rld'); // the last 4 bytes start inside ö: the cut moves past it
  assert.deepEqual(terms.release({ sessionId: 's', terminalId }), {});
  assert.deepEqual(terms.live(), []);
  assert.throws(() => terms.output({ sessionId: 's', terminalId }));
});

test('kill ends a running command and wait_for_exit reports the signal', async () => {
  const terms = new Terminals();
  const { terminalId } = terms.create({ sessionId: 's', command: 'sleep', args: ['30'] });
  terms.kill({ sessionId: 's', terminalId });
  assert.deepEqual(await terms.waitForExit({ sessionId: 's', terminalId }), { exitCode: null, signal: 'SIGKILL' });
  terms.release({ sessionId: 's', terminalId });
});

test('buffers answer reads with the unsaved text, by line and limit, and take writes', () => {
  const b = new Buffers('/ws', { 'a.txt': 'one\ntwo\nthree\n' });
  assert.equal(b.read({ sessionId: 's', path: '/ws/a.txt' }).content, 'one\ntwo\nthree\n');
  assert.equal(b.read({ sessionId: 's', path: '/ws/a.txt', line: 2, limit: 1 }).content, 'two\n');
  b.write({ sessionId: 's', path: '/ws/a.txt', content: 'new\n' });
  assert.equal(b.text('/ws', 'a.txt'), 'new\n');
  assert.deepEqual(failures, []);
});
