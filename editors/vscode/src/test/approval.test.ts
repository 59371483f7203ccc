import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalDetail, approvalTitle, parseApproval, proposedText } from '../logic/approval';
import { answerApproval, ApprovalAction } from '../protocol';
import { daemonDiffs } from './daemonDiffs';

// Messages in lsp/approver.go's format.
const editMessage = 'agent-lsp wants to run edit_file (risk MEDIUM): edit f.go (replace 1 occurrence)\n' +
  daemonDiffs.twoHunks.diff.replace(/\n$/, '');
const bashMessage = 'agent-lsp wants to run run_bash (risk HIGH): run a shell command\n$ rm -rf build &&\n  make all\nWhy HIGH: rm -rf: deletes files recursively';

test('an edit approval parses into tool, risk, summary, path and diff', () => {
  const a = parseApproval(editMessage);
  assert.equal(a.recognised, true);
  assert.equal(a.tool, 'edit_file');
  assert.equal(a.risk, 'MEDIUM');
  assert.equal(a.summary, 'edit f.go (replace 1 occurrence)');
  assert.equal(a.path, 'f.go');
  assert.equal(a.command, undefined);
  assert.equal(a.reasons, undefined);
  assert.equal(a.diff?.hunks.length, 2);
  assert.equal(proposedText(daemonDiffs.twoHunks.before, a).text, daemonDiffs.twoHunks.after);
});

test('a command approval keeps a multi-line command and the reasons', () => {
  const a = parseApproval(bashMessage);
  assert.equal(a.tool, 'run_bash');
  assert.equal(a.risk, 'HIGH');
  assert.equal(a.command, 'rm -rf build &&\n  make all');
  assert.equal(a.reasons, 'rm -rf: deletes files recursively');
  assert.equal(a.diff, undefined);
  assert.throws(() => proposedText('', a), /no diff/);
  assert.equal(approvalDetail(a), '$ rm -rf build &&\n  make all\nWhy HIGH: rm -rf: deletes files recursively');
});

test('reasons after a diff are not part of it', () => {
  const a = parseApproval('agent-lsp wants to run write_file (risk HIGH): write .env\n' +
    daemonDiffs.newFile.diff.replace('f.go', '.env').replace('f.go', '.env').replace(/\n$/, '') + '\nWhy HIGH: .env: holds secrets');
  assert.equal(a.path, '.env');
  assert.equal(a.reasons, '.env: holds secrets');
  assert.equal(a.diff?.complete, true);
  assert.equal(proposedText('', a).text, daemonDiffs.newFile.after);
});

test('a binary note is shown but offers no diff', () => {
  const a = parseApproval('agent-lsp wants to run write_file (risk MEDIUM): write logo.png\n(binary content: 10 bytes → 12 bytes)');
  assert.equal(a.diffText, '(binary content: 10 bytes → 12 bytes)');
  assert.equal(a.diff, undefined);
  assert.throws(() => proposedText('', a), /no text diff/);
});

test('a message in another format is kept whole', () => {
  const a = parseApproval('Restart the server?');
  assert.deepEqual(a, { recognised: false, tool: '', risk: '', summary: 'Restart the server?' });
  assert.equal(approvalTitle(a), 'Restart the server?');
});

test('answerApproval returns the offered item the user chose, else null (Deny)', async () => {
  const params = {
    type: 2, message: editMessage,
    actions: [{ title: ApprovalAction.allow }, { title: ApprovalAction.allowSession }, { title: ApprovalAction.deny }],
  };
  let seen: string[] = [];
  const chosen = await answerApproval(params, async (a, offered) => {
    seen = offered;
    assert.equal(a.tool, 'edit_file');
    return ApprovalAction.allowSession;
  });
  assert.deepEqual(chosen, { title: 'Allow for this session' });
  assert.deepEqual(seen, ['Allow', 'Allow for this session', 'Deny']);
  assert.equal(await answerApproval(params, async () => undefined), null);
  assert.equal(await answerApproval(params, async () => 'Show diff'), null);
  assert.equal(await answerApproval({ type: 2, message: editMessage }, async () => 'Allow'), null);
});
