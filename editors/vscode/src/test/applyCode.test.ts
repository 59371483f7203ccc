import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeHunks, proposedText, selectedLines } from '../logic/applyCode';
import { applyHunks } from '../logic/review';
import { WorkspaceFiles } from '../logic/workspaceFiles';

const doc = 'package main\n\nfunc a() {}\n\nfunc b() {}\n\nfunc c() {}\n';

test('Apply with a selection replaces the selected whole lines', () => {
  const span = selectedLines({ line: 2, character: 5 }, { line: 3, character: 0 });
  assert.deepEqual(span, { startLine: 2, endLine: 3 });
  assert.equal(selectedLines({ line: 2, character: 1 }, { line: 2, character: 1 }), undefined);
  const next = proposedText(doc, 'func a() { return }', span);
  assert.equal(next, 'package main\n\nfunc a() { return }\n\nfunc b() {}\n\nfunc c() {}\n');
  const hunks = codeHunks(doc, next);
  assert.equal(hunks.length, 1);
  assert.deepEqual({ ...hunks[0], diff: undefined }, { id: 1, startLine: 2, endLine: 3, oldText: 'func a() {}\n', newText: 'func a() { return }\n', diff: undefined });
  assert.equal(hunks[0].diff, '@@ -3,1 +3,1 @@\n-func a() {}\n+func a() { return }');
});

test('Apply without a selection offers the whole-file change as separate hunks, each kept or dropped', () => {
  const next = 'package main\n\nimport "fmt"\n\nfunc a() {}\n\nfunc c() { fmt.Println() }\n';
  const hunks = codeHunks(doc, next);
  assert.ok(hunks.length >= 2, JSON.stringify(hunks));
  assert.equal(applyHunks(doc, hunks), next);
  assert.equal(applyHunks(doc, hunks, []), doc);
  const first = applyHunks(doc, hunks, [hunks[0].id]);
  assert.ok(first.includes('import "fmt"') && first.includes('func c() {}'), first);
  assert.deepEqual(codeHunks(doc, doc), []);
});

test('only files inside a workspace folder resolve, symbolic links followed', (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lsp-paths-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'a.go'), 'package a\n');
  fs.writeFileSync(path.join(base, 'secret.txt'), 'x');
  fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'escape.txt'));
  const files = new WorkspaceFiles(() => [root]);
  assert.equal(files.resolve('src/a.go'), path.join(root, 'src', 'a.go'));
  assert.equal(files.resolve('./src/a.go'), path.join(root, 'src', 'a.go'));
  assert.equal(files.resolve(path.join(root, 'src', 'a.go')), path.join(root, 'src', 'a.go'));
  assert.equal(files.resolve('src'), undefined, 'a directory is not a file link');
  assert.equal(files.resolve('../secret.txt'), undefined);
  assert.equal(files.resolve(path.join(base, 'secret.txt')), undefined);
  assert.equal(files.resolve('escape.txt'), undefined, 'a link out of the workspace');
  assert.equal(files.resolve('/etc/passwd'), undefined);
  assert.equal(files.resolve('src/b.go'), undefined);
  fs.writeFileSync(path.join(root, 'src', 'b.go'), 'package a\n');
  assert.equal(files.resolve('src/b.go'), undefined, 'remembered until forget');
  files.forget();
  assert.equal(files.resolve('src/b.go'), path.join(root, 'src', 'b.go'));
});
