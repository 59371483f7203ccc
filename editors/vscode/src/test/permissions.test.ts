import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileProblems, permissionItems } from '../logic/permissions';
import type { PermissionsResult } from '../protocol';

// The daemon's own example of agent/permissions (lsp/testdata/wire).
const golden = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'lsp', 'testdata', 'wire', 'agent.permissions.json'), 'utf8'),
) as { result: PermissionsResult };

test('each rule is an item that removes it', () => {
  const items = permissionItems(golden.result);
  assert.equal(items[0].label, 'Allow run_bash: go test ./...');
  assert.deepEqual(items[0].params, { remove: golden.result.rules[0].id });
});

test('an untrusted workspace file is an item that trusts its shown content', () => {
  const r: PermissionsResult = {
    rules: [{ id: 'w-1', tool: 'mcp__github__*', pattern: '', decision: 'deny', source: 'workspace' }],
    files: [{ source: 'workspace', path: '/w/.agents/permissions.json', exists: true, trusted: false, hash: 'abc', errors: [] }],
  };
  const items = permissionItems(r);
  assert.equal(items[0].label, 'Deny mcp__github__*');
  assert.deepEqual(items[1].params, { trust: 'abc' });
  assert.deepEqual(permissionItems({ ...r, files: [{ ...r.files[0], trusted: true }] }).length, 1);
});

test('file errors are shown', () => {
  assert.equal(fileProblems(golden.result).length, 1);
});
