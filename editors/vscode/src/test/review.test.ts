import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HunkSelection,
  applyHunks,
  hunkLensTitles,
  hunkPickItems,
  locateHunks,
  proposedPlaces,
  reviewAnswer,
  reviewPlaceholder,
  reviewTitle,
  selectionSummary,
  splitLines,
} from '../logic/review';
import { declareAgentRequests, type ReviewHunk } from '../protocol';

// The daemon's three hunks for renaming oldName in this text (lsp/e2e/node_review_test.go).
const source = 'package demo\n\nfunc oldName() {}\n\n// a\n// b\n// c\n\nvar x = oldName\n\n// d\n// e\n// f\n\nvar y = oldName\n';
const hunk = (id: number, startLine: number, oldText: string, newText: string): ReviewHunk => ({
  id, startLine, endLine: startLine + splitLines(oldText).length, oldText, newText, diff: `@@ hunk ${id} @@`,
});
const rename: ReviewHunk[] = [
  hunk(1, 2, 'func oldName() {}\n', 'func newName() {}\n'),
  hunk(2, 8, 'var x = oldName\n', 'var x = newName\n'),
  hunk(3, 14, 'var y = oldName\n', 'var y = newName\n'),
];

test('splitLines keeps line breaks and a last line without one', () => {
  assert.deepEqual(splitLines('a\nb\r\nc'), ['a\n', 'b\r\n', 'c']);
  assert.deepEqual(splitLines('a\n'), ['a\n']);
  assert.deepEqual(splitLines(''), []);
});

test('applyHunks: every hunk, a subset, none', () => {
  assert.equal(applyHunks(source, rename), source.replaceAll('oldName', 'newName'));
  assert.equal(applyHunks(source, rename, [1, 3]), source.replace('func oldName', 'func newName').replace('var y = oldName', 'var y = newName'));
  assert.equal(applyHunks(source, rename, []), source);
});

test('applyHunks: insertions, deletions, a last line without a line break, hunks out of order', () => {
  const text = 'a\nb\nc';
  const hunks = [hunk(2, 2, 'c', 'C\nD'), hunk(1, 0, '', 'zero\n'), hunk(3, 1, 'b\n', '')];
  // ids out of file order must not matter: lines decide.
  const fixed = [hunks[1], hunks[2], hunks[0]];
  assert.equal(applyHunks(text, fixed), 'zero\na\nC\nD');
  assert.equal(applyHunks(text, fixed, [2]), 'a\nb\nC\nD');
  assert.equal(applyHunks(text, fixed, [1, 3]), 'zero\na\nc');
});

test('applyHunks refuses a text the hunks were not made for, and overlapping hunks', () => {
  assert.throws(() => applyHunks(source.replace('var x', 'let x'), rename), /hunk 2 does not match line 9/);
  assert.throws(() => applyHunks('a\n', [hunk(1, 3, 'x\n', 'y\n')]), /hunk 1 does not match line 4/);
  assert.throws(() => applyHunks('a\nb\n', [hunk(1, 0, 'a\nb\n', ''), hunk(2, 1, 'b\n', 'c\n')]), /hunk 2 overlaps/);
});

test('locateHunks follows lines the user added or removed since the agent read the text', () => {
  assert.deepEqual(locateHunks(source, rename), rename);
  // Two lines typed at the top, one removed between hunks 2 and 3.
  const typed = '// one\n// two\n' + source.replace('// e\n', '');
  const moved = locateHunks(typed, rename);
  assert.deepEqual(moved.map((h) => [h.id, h.startLine, h.endLine]), [[1, 4, 5], [2, 10, 11], [3, 15, 16]]);
  assert.equal(applyHunks(typed, moved, [2]), typed.replace('var x = oldName', 'var x = newName'));
  // An insertion keeps the shift of the hunk before it.
  const ins = [hunk(1, 0, 'a\n', 'A\n'), hunk(2, 2, '', 'new\n')];
  assert.deepEqual(locateHunks('top\na\nb\nc\n', ins).map((h) => h.startLine), [1, 3]);
  assert.throws(() => locateHunks(source.replace('var x = oldName', 'var x = typed'), rename), /hunk 2 \(line 9\) is no longer in the document/);
});

test('proposedPlaces: where each hunk lands in the text with every hunk applied', () => {
  const hunks = [hunk(1, 1, 'b\n', 'B1\nB2\nB3\n'), hunk(2, 3, 'd\ne\n', ''), hunk(3, 6, 'g\n', 'G\n')];
  const proposed = applyHunks('a\nb\nc\nd\ne\nf\ng\n', hunks);
  assert.equal(proposed, 'a\nB1\nB2\nB3\nc\nf\nG\n');
  assert.deepEqual(proposedPlaces(hunks, splitLines(proposed).length), [
    { id: 1, line: 1, deletes: false },
    { id: 2, line: 5, deletes: true },
    { id: 3, line: 6, deletes: false },
  ]);
  // A deletion at the end of the text sits on the last line.
  assert.deepEqual(proposedPlaces([hunk(1, 1, 'b\n', '')], 1), [{ id: 1, line: 0, deletes: true }]);
});

test('hunkPickItems label each hunk with its lines and its first changed lines, all picked', () => {
  const items = hunkPickItems([...rename, hunk(4, 16, '', 'var z = 1\nvar w = 2\n')]);
  assert.deepEqual(items.map((i) => [i.id, i.label, i.description, i.detail, i.picked]), [
    [1, 'Hunk 1 of 4: line 3', '−1 +1', '− func oldName() {}   + func newName() {}', true],
    [2, 'Hunk 2 of 4: line 9', '−1 +1', '− var x = oldName   + var x = newName', true],
    [3, 'Hunk 3 of 4: line 15', '−1 +1', '− var y = oldName   + var y = newName', true],
    [4, 'Hunk 4 of 4: before line 17', '−0 +2', '+ var z = 1', true],
  ]);
  assert.equal(hunkPickItems([hunk(1, 0, 'a\nb\nc\n', '')])[0].label, 'Hunk 1 of 1: lines 1–3');
  assert.match(hunkPickItems([hunk(1, 0, '', 'x'.repeat(100) + '\n')])[0].detail, /^\+ x{59}…$/);
});

test('the lenses check the current choice', () => {
  assert.deepEqual(hunkLensTitles(2, true), { accept: '$(check) Accept hunk 2', reject: 'Reject hunk 2' });
  assert.deepEqual(hunkLensTitles(2, false), { accept: 'Accept hunk 2', reject: '$(check) Reject hunk 2' });
});

test('HunkSelection: all accepted at first, toggled, replaced, ids in file order, unknown ids ignored', () => {
  const s = new HunkSelection(rename);
  assert.deepEqual(s.ids(), [1, 2, 3]);
  s.set(2, false);
  s.set(9, true);
  assert.deepEqual(s.ids(), [1, 3]);
  assert.equal(s.has(2), false);
  s.replace([3, 7, 1]);
  assert.deepEqual(s.ids(), [1, 3]);
  s.replace([]);
  assert.deepEqual(s.ids(), []);
});

test('reviewAnswer: accept when all, reject when none, partial otherwise; feedback trimmed', () => {
  const cases: Array<[number[], string | undefined, unknown]> = [
    [[1, 2, 3], undefined, { decision: 'accept' }],
    [[3, 2, 1], '  ', { decision: 'accept' }],
    [[], 'keep the old name', { decision: 'reject', feedback: 'keep the old name' }],
    [[3, 1], ' keep the old name\n', { decision: 'partial', acceptedHunks: [1, 3], feedback: 'keep the old name' }],
    [[2, 42], undefined, { decision: 'partial', acceptedHunks: [2] }],
    [[42], undefined, { decision: 'reject' }],
  ];
  for (const [ids, feedback, want] of cases) assert.deepEqual(reviewAnswer(rename, ids, feedback), want, JSON.stringify([ids, feedback]));
  assert.deepEqual(reviewAnswer([], [], 'x'), { decision: 'reject', feedback: 'x' });
});

test('selectionSummary says what will be answered', () => {
  assert.equal(selectionSummary(rename, [1, 2, 3]), 'Accepting all 3 hunks');
  assert.equal(selectionSummary(rename.slice(0, 1), [1]), 'Accepting the hunk');
  assert.equal(selectionSummary(rename, []), 'Rejecting the whole edit');
  assert.equal(selectionSummary(rename, [1, 3]), 'Accepting hunks 1, 3 of 3; rejecting 2');
  assert.equal(selectionSummary(rename, [2]), 'Accepting hunk 2 of 3; rejecting 1, 3');
});

test('declareAgentRequests declares agentReview and agentApprove and keeps the other experimental capabilities', () => {
  const caps: { experimental?: unknown } = {};
  declareAgentRequests(caps);
  assert.deepEqual(caps.experimental, { agentReview: true, agentApprove: true });
  const other: { experimental?: unknown } = { experimental: { snippets: true } };
  declareAgentRequests(other);
  assert.deepEqual(other.experimental, { snippets: true, agentReview: true, agentApprove: true });
  const notAnObject: { experimental?: unknown } = { experimental: 'x' };
  declareAgentRequests(notAnObject);
  assert.deepEqual(notAnObject.experimental, { agentReview: true, agentApprove: true });
});

test('the review pick says how to confirm before anything VS Code may cut', () => {
  assert.ok(reviewPlaceholder.startsWith('Enter: keep the checked hunks · Escape: hide, the edit waits'));
  // Short enough not to be cut in a quick pick of VS Code's default width.
  assert.ok(reviewPlaceholder.length <= 64, reviewPlaceholder);
  assert.ok(!/reject/i.test(reviewPlaceholder), 'Escape never rejects');
  assert.equal(reviewTitle({ summary: 'rename', path: 'a.go', risk: 'high', reasons: ['outside tests', '3 hunks'] }), 'agent-lsp: review rename (risk high: outside tests; 3 hunks)');
  assert.equal(reviewTitle({ summary: '', path: 'a.go', risk: 'low' }, ' (note)'), 'agent-lsp: review a.go (risk low) (note)');
});

test('package.json: the hunk lenses show by default, inline edit works without a selection on a key of its own', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  assert.equal(pkg.contributes.configurationDefaults['diffEditor.codeLens'], true);
  const inline = pkg.contributes.keybindings.find((k: { command: string }) => k.command === 'agentLsp.inlineEdit');
  assert.ok(!/editorHasSelection/.test(inline.when), inline.when);
  // VS Code's own chat keys (Open Chat: ctrl+alt+i; Agent mode on Linux: ctrl+shift+alt+i).
  assert.ok(!['ctrl+alt+i', 'ctrl+shift+alt+i'].includes(inline.key), inline.key);
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'agent-lsp', c.command);
  assert.equal(pkg.contributes.viewsContainers.activitybar[0].title, 'agent-lsp');
});
