import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUnifiedDiff, DiffMismatchError, parseUnifiedDiff } from '../logic/unifiedDiff';
import { daemonDiffs } from './daemonDiffs';

// The popup carries the diff without its final line break (compactDiff trims it).
const popupLines = (diff: string): string[] => diff.replace(/\n+$/, '').split('\n');

for (const [name, f] of Object.entries(daemonDiffs)) {
  if (name === 'long') continue;
  test(`applying the daemon's diff reproduces the proposed text: ${name}`, () => {
    const { diff, end } = parseUnifiedDiff(popupLines(f.diff));
    assert.equal(end, popupLines(f.diff).length, 'the whole diff is read');
    assert.equal(diff.complete, true);
    assert.equal(diff.newPath, 'b/f.go');
    assert.equal(applyUnifiedDiff(f.before, diff), f.after);
  });
}

test('a diff cut by the popup keeps only its whole hunks', () => {
  const lines = popupLines(daemonDiffs.twoHunks.diff);
  const secondHunk = lines.findIndex((l, i) => i > 3 && l.startsWith('@@'));
  const cut = [...lines.slice(0, secondHunk + 3), '… (4 more diff lines)', 'Why HIGH: f.go: something'];
  const { diff, end } = parseUnifiedDiff(cut);
  assert.equal(diff.complete, false);
  assert.equal(diff.hunks.length, 1);
  assert.equal(cut[end], '… (4 more diff lines)', 'the hunk cut short ends the diff at the note');
  assert.equal(applyUnifiedDiff(daemonDiffs.twoHunks.before, diff), daemonDiffs.twoHunks.before.replace('\n2\n', '\nTWO\n'));
});

test('the note after the last whole hunk marks the diff incomplete and is consumed', () => {
  const lines = [...popupLines(daemonDiffs.noNewlineKeep.diff), '… (12 more diff lines)', 'Why MEDIUM: x'];
  const { diff, end } = parseUnifiedDiff(lines);
  assert.equal(diff.complete, false);
  assert.equal(diff.hunks.length, 1);
  assert.equal(lines[end], 'Why MEDIUM: x');
});

test('a diff whose only hunk is cut has nothing to apply', () => {
  const lines = popupLines(daemonDiffs.long.diff).slice(0, 40);
  lines.push(`… (${popupLines(daemonDiffs.long.diff).length - 40} more diff lines)`);
  const { diff } = parseUnifiedDiff(lines);
  assert.equal(diff.complete, false);
  assert.equal(diff.hunks.length, 0);
});

test('a hunk is found where the document moved since the diff was made', () => {
  const f = daemonDiffs.twoHunks;
  const { diff } = parseUnifiedDiff(popupLines(f.diff));
  assert.equal(applyUnifiedDiff('0a\n0b\n' + f.before, diff), '0a\n0b\n' + f.after);
});

test('a hunk whose old lines are not in the document is an error', () => {
  const { diff } = parseUnifiedDiff(popupLines(daemonDiffs.twoHunks.diff));
  assert.throws(() => applyUnifiedDiff('something else\n', diff), DiffMismatchError);
});

test('headers with a count of one and no count parse', () => {
  const { diff } = parseUnifiedDiff(['@@ -2 +2 @@', '-b', '+B']);
  assert.deepEqual(diff.hunks[0], {
    oldStart: 2, oldLines: 1, newStart: 2, newLines: 1,
    lines: [{ op: '-', text: 'b', noNewline: false }, { op: '+', text: 'B', noNewline: false }],
  });
  assert.equal(applyUnifiedDiff('a\nb\nc\n', diff), 'a\nB\nc\n');
});

test('an empty line inside a hunk is an empty context line', () => {
  const { diff } = parseUnifiedDiff(['@@ -1,3 +1,3 @@', ' a', '', '-c', '+C']);
  assert.equal(applyUnifiedDiff('a\n\nc\n', diff), 'a\n\nC\n');
});

test('a cut from the middle (Truncate) makes the rest unusable but the diff ends before the reasons', () => {
  const lines = ['--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', '-a', '+A', ' b', '[… 300 bytes (20 lines) cut from the middle of 30000 bytes …]', '+x', ' y', 'Why HIGH: z'];
  const { diff, end } = parseUnifiedDiff(lines);
  assert.equal(diff.complete, false);
  assert.equal(diff.hunks.length, 1);
  assert.equal(lines[end], 'Why HIGH: z');
});

test('an added last line without a line break stays without one', () => {
  // The shape go-udiff writes when the new text loses its final newline.
  const { diff } = parseUnifiedDiff(['--- a/f.go', '+++ b/f.go', '@@ -1,2 +1,2 @@', ' a', '-b', '+B', '\\ No newline at end of file']);
  assert.equal(diff.hunks[0].lines[2].noNewline, true);
  assert.equal(applyUnifiedDiff('a\nb\n', diff), 'a\nB');
});
