import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerApprove, answerMessageRequest, approvalButtons, approvalDetail, approvalTitle, canShowDiff, maxDetailDiffLines, proposedText, stopTitle } from '../logic/approval';
import type { ApproveOption, ApproveParams, ReviewHunk } from '../protocol';

// agent/approve requests as the daemon sends them (lsp/approve.go; docs/protocol.md).
const options: ApproveOption[] = [
  { id: 'allow_once', title: 'Allow', kind: 'allow_once' },
  { id: 'allow_session', title: 'Allow for this session', kind: 'allow_session' },
  { id: 'deny', title: 'Deny', kind: 'deny' },
];
const bash: ApproveParams = {
  sessionId: 's1', toolCallId: 'call_1', tool: 'run_bash', risk: 'high', summary: 'run: rm -rf build && make all',
  command: 'rm -rf build &&\n  make all', reasons: ['rm -rf: deletes files recursively', 'outside the sandbox'],
  options: [options[0], options[2]],
};
const source = 'package demo\n\nfunc oldName() {}\n\nvar x = oldName\n';
const hunks: ReviewHunk[] = [
  { id: 1, startLine: 2, endLine: 3, oldText: 'func oldName() {}\n', newText: 'func newName() {}\n', diff: '@@ -1,5 +1,5 @@\n package demo\n \n-func oldName() {}\n+func newName() {}\n \n' },
  { id: 2, startLine: 4, endLine: 5, oldText: 'var x = oldName\n', newText: 'var x = newName\n', diff: '@@ -3,3 +3,3 @@\n \n-var x = oldName\n+var x = newName\n' },
];
const edit: ApproveParams = {
  sessionId: 's1', toolCallId: 'call_2', tool: 'edit_file', risk: 'medium', summary: 'edit a.go (2 replacements)',
  path: 'a.go', uri: 'file:///w/a.go', hunks, reasons: [], options,
};

test('a command approval shows the command and the reasons, and no diff', () => {
  assert.equal(approvalTitle(bash), 'Run command? HIGH risk: rm -rf: deletes files recursively; outside the sandbox');
  // The command once, in the detail; the title says neither run_bash nor the command.
  assert.equal(approvalDetail(bash), '$ rm -rf build &&\n  make all');
  assert.equal(canShowDiff(bash), false);
});

test('a command approval shows the command as the daemon renders it, never its hidden characters', () => {
  const hidden = { ...bash, command: 'echo safe\rgit push --force \u202Etxt', visibleCommand: 'echo safe\\rgit push --force <U+202E>txt' };
  assert.equal(approvalDetail(hidden).split('\n')[0], '$ echo safe\\rgit push --force <U+202E>txt');
});

test("an edit approval shows its hunks' diffs and opens the text with every hunk", () => {
  assert.equal(approvalTitle(edit), 'Edit file a.go? MEDIUM risk');
  assert.equal(approvalTitle({ ...edit, parentToolCallId: 'call_task' }), 'Subagent: Edit file a.go? MEDIUM risk');
  assert.equal(approvalDetail(edit), hunks.map((h) => h.diff.replace(/\n$/, '')).join('\n'));
  assert.equal(canShowDiff(edit), true);
  assert.equal(proposedText(source, edit), 'package demo\n\nfunc newName() {}\n\nvar x = newName\n');
  // The user typed a line above since the agent read the file: the hunks follow it.
  assert.equal(proposedText('// new\n' + source, edit), '// new\npackage demo\n\nfunc newName() {}\n\nvar x = newName\n');
  assert.throws(() => proposedText('something else\n', edit), /no longer in the document/);
});

test('a new file is one insertion into an empty text', () => {
  const created: ApproveParams = { ...edit, tool: 'write_file', hunks: [{ id: 1, startLine: 0, endLine: 0, oldText: '', newText: 'a\nb\n', diff: '@@ -0,0 +1,2 @@\n+a\n+b\n' }] };
  assert.equal(proposedText('', created), 'a\nb\n');
});

test('a long diff is cut in the dialog, not in the diff view', () => {
  const newText = Array.from({ length: 60 }, (_, i) => `row ${i + 1}\n`).join('');
  const diff = '@@ -0,0 +1,60 @@\n' + newText.replace(/^/gm, '+').replace(/\+$/, '');
  const long: ApproveParams = { ...edit, hunks: [{ id: 1, startLine: 0, endLine: 0, oldText: '', newText, diff }] };
  const lines = approvalDetail(long).split('\n');
  assert.equal(lines.length, maxDetailDiffLines + 1);
  assert.equal(lines[lines.length - 1], '… (21 more diff lines: Show diff shows them)');
  assert.equal(proposedText('', long), newText);
});

test('an approval without a file or hunks (an MCP tool) has no diff', () => {
  const mcp: ApproveParams = { sessionId: 's', toolCallId: 'c', tool: 'mcp__demo__word_count', risk: 'medium', summary: 'MCP demo/word_count {"text":"x"}', reasons: ['third-party MCP tool'], options };
  assert.equal(approvalTitle(mcp), 'Use demo tool word_count? MEDIUM risk: third-party MCP tool');
  assert.equal(approvalDetail(mcp), 'MCP demo/word_count {"text":"x"}');
  assert.equal(canShowDiff(mcp), false);
});

test('answerApprove sends the chosen offered option, else null (Deny)', async () => {
  let seen: ApproveParams | undefined;
  assert.deepEqual(await answerApprove(edit, async (p) => {
    seen = p;
    return 'allow_session';
  }), { optionId: 'allow_session' });
  assert.equal(seen?.toolCallId, 'call_2');
  assert.equal(await answerApprove(edit, async () => undefined), null);
  assert.equal(await answerApprove(edit, async () => 'Show diff'), null);
  // allow_session is not offered for HIGH risk: choosing it anyway is not sent.
  assert.equal(await answerApprove(bash, async () => 'allow_session'), null);
  assert.equal(await answerApprove({ ...bash, options: [] }, async () => 'allow_once'), null);
  // A daemon that leaves reasons out still gets a dialog.
  const { reasons: _omitted, ...noReasons } = bash;
  assert.deepEqual(await answerApprove(noReasons as ApproveParams, async (p) => (p.reasons.length === 0 ? 'deny' : undefined)), { optionId: 'deny' });
});

test('any other showMessageRequest is shown as it is and answered with the chosen title', async () => {
  const trust = { type: 2, message: 'Start the MCP server "x" of .mcp.json?', actions: [{ title: 'Allow' }, { title: 'Allow always for this workspace' }, { title: 'Deny' }] };
  let shown: { message: string; titles: string[] } | undefined;
  assert.deepEqual(await answerMessageRequest(trust, async (p, titles) => {
    shown = { message: p.message, titles };
    return 'Allow always for this workspace';
  }), { title: 'Allow always for this workspace' });
  assert.deepEqual(shown, { message: trust.message, titles: ['Allow', 'Allow always for this workspace', 'Deny'] });
  assert.equal(await answerMessageRequest(trust, async () => undefined), null);
  assert.equal(await answerMessageRequest({ type: 3, message: 'note' }, async (_p, titles) => (titles.length === 0 ? undefined : 'x')), null);
});

test('HIGH: Deny is the first button (VS Code focuses it: Enter denies), the only Deny, and Escape denies and stops (no VS Code Cancel)', () => {
  const buttons = approvalButtons(bash);
  assert.deepEqual(buttons.map((b) => [b.title, b.optionId, b.isCloseAffordance, b.stops ?? false]), [
    ['Deny', 'deny', false, false],
    ['Allow', 'allow_once', false, false],
    [stopTitle, 'deny', true, true],
  ]);
  const highEdit = approvalButtons({ ...edit, risk: 'high', options: [options[0], options[2]] });
  assert.deepEqual(highEdit.map((b) => b.title), ['Deny', 'Allow', 'Show diff', stopTitle]);
  assert.equal(highEdit.filter((b) => b.title === 'Deny').length, 1);
  assert.equal(highEdit.filter((b) => b.isCloseAffordance).length, 1, 'one close affordance: VS Code adds no Cancel');
});

test('MEDIUM: Allow first, Deny is the close affordance (Escape denies, no second Cancel), Show diff before it', () => {
  const buttons = approvalButtons(edit);
  assert.deepEqual(buttons.map((b) => [b.title, b.optionId, b.isCloseAffordance]), [
    ['Allow', 'allow_once', false],
    ['Allow for this session', 'allow_session', false],
    ['Show diff', undefined, false],
    ['Deny', 'deny', true],
  ]);
});

test('the title names the action in plain words', () => {
  const write: ApproveParams = { ...edit, tool: 'write_file', path: '.vscode/tasks.json', risk: 'high', reasons: ['runs on folder open'] };
  assert.equal(approvalTitle(write), 'Write file .vscode/tasks.json? HIGH risk: runs on folder open');
  assert.equal(approvalTitle({ ...bash, tool: 'read_file', path: '.env', reasons: [] }), 'Read file .env? HIGH risk');
  assert.equal(approvalTitle({ ...bash, tool: 'some_tool', reasons: [] }), 'Use some_tool? HIGH risk');
});
