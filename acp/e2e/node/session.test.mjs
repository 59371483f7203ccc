// session.mjs against fake_agent.mjs (the SDK's agent side, scripted): the
// whole scenario passes with and without client capabilities, and one
// invalid session/update from the agent fails the run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

const here = path.dirname(new URL(import.meta.url).pathname);
const answer = 'All done.';

function runScenario(caps, env = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-session-test-'));
  fs.writeFileSync(path.join(root, 'notes.txt'), caps ? 'status: on disk\n' : 'status: draft (unsaved)\n');
  const cfg = path.join(root, 'config.json');
  fs.writeFileSync(cfg, JSON.stringify({
    command: [process.execPath, path.join(here, 'fake_agent.mjs')], root, caps,
    buffers: { 'notes.txt': 'status: draft (unsaved)\n' },
    mcpServer: { name: 'demo', command: 'true', args: [], env: [] },
    prompts: { work: 'Mark the notes final.', long: 'Tell me a story.', slow: 'Wait for the slow command.', after: 'Anything left?' },
    expect: { answer, cancelWithinMs: 1000 }, timeoutMs: 20000,
  }));
  const r = spawnSync(process.execPath, [path.join(here, 'session.mjs'), cfg], {
    cwd: here, encoding: 'utf8', env: { ...process.env, FAKE_AGENT_ANSWER: answer, ...env }, timeout: 30000,
  });
  const disk = fs.readFileSync(path.join(root, 'notes.txt'), 'utf8');
  fs.rmSync(root, { recursive: true, force: true });
  return { status: r.status, summary: JSON.parse(r.stdout.trim().split('\n').pop()), disk };
}

test('the editor run passes: buffers, terminal, cancel, config options, replay', () => {
  const { status, summary, disk } = runScenario(true);
  assert.deepEqual([summary.failures, summary.violations], [[], []]);
  assert.equal(status, 0);
  assert.equal(summary.first.buffers[Object.keys(summary.first.buffers)[0]], 'status: final (unsaved)\n');
  assert.equal(disk, 'status: on disk\n');
  assert.deepEqual(summary.first.terminalCalls, ['terminal/wait_for_exit', 'terminal/output', 'terminal/release', 'terminal/kill', 'terminal/release']);
  assert.deepEqual(summary.first.terminalExits['term-2'], { exitCode: null, signal: 'SIGKILL' });
  assert.equal(summary.first.slow.stopReason, 'cancelled');
  assert.equal(summary.first.cancel.stopReason, 'cancelled');
  assert.deepEqual([summary.first.mode.to, summary.first.model.to], ['plan', 'fake-b']);
  assert.equal(summary.first.after.text, 'mode plan');
  assert.ok(summary.load.kinds.includes('tool_call'));
});

test('the bare run passes and edits the disk', () => {
  const { status, summary, disk } = runScenario(false);
  assert.deepEqual([summary.failures, summary.violations], [[], []]);
  assert.equal(status, 0);
  assert.equal(disk, 'status: final (unsaved)\n');
  assert.equal(summary.first.terminalsCreated, undefined);
});

test('one invalid update fails the run', () => {
  const { status, summary } = runScenario(true, { FAKE_AGENT_BREAK: '1' });
  assert.equal(status, 1);
  assert.ok(summary.violations.some((v) => v.startsWith("agent's session/update fails the schema")), summary.violations.join('\n'));
});
