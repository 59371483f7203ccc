import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initializationOptions, readSettings } from '../logic/settings';

// agentLsp.spendLimit becomes initializationOptions.spendLimit; a folder's
// settings (a repository's .vscode/settings.json) may lower a cap or add
// one, never raise or remove one.
test('a folder may tighten the spend caps, never loosen them', () => {
  const read = (user: unknown, folder?: unknown) =>
    readSettings((k) => (k === 'spendLimit' ? { globalValue: user, workspaceFolderValue: folder } : {})).settings;
  assert.deepEqual(initializationOptions(read({ sessionUsd: 2, dayUsd: 10, warnAt: 0.9 })).spendLimit, { sessionUsd: 2, dayUsd: 10, warnAt: 0.9 });
  assert.deepEqual(read({ sessionUsd: 2, dayUsd: 10 }, { sessionUsd: 1000, dayUsd: 0, sessionTokens: 5000 }).spendLimit,
    { sessionUsd: 2, dayUsd: 10, sessionTokens: 5000 }, 'the folder raised and removed caps: only its new, tighter token cap holds');
  assert.deepEqual(read({ sessionUsd: 2 }, { sessionUsd: 0.5, warnAt: 0.5 }).spendLimit, { sessionUsd: 0.5, warnAt: 0.5 });
  assert.equal(read(undefined).spendLimit, undefined);
  assert.equal(initializationOptions(read({ sessionUsd: -1, warnAt: 3 })).spendLimit, undefined, 'nonsense is no cap');
});
