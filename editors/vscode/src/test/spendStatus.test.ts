import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusView } from '../logic/status';
import { budgetPrompt } from '../logic/spendStatus';
import type { Spend, Totals } from '../protocol';

const totals: Totals = { promptTokens: 410_000, completionTokens: 2_000, cachedTokens: 300_000, cost: 0.82, costKnown: true };

// The status bar shows the session's spend against its cap (round_end's
// spend, lsp/testdata/wire), and the tooltip every cap set.
test('the status bar shows the session cap and the tooltip each cap', () => {
  const spend: Spend = { sessionUsd: 0.82, sessionCapUsd: 1, dayUsd: 3.1, dayCapUsd: 10, workspaceDayUsd: 2.4, sessionTokens: 412_000 };
  const v = statusView({ totals, spend });
  assert.equal(v.text, '$(hubot) agent: 412k tok · $0.820 of $1.00');
  assert.match(v.tooltip, /^Session cap: \$0\.820 of \$1\.00$/m);
  assert.match(v.tooltip, /^Day cap: \$3\.10 of \$10\.00$/m);
  assert.doesNotMatch(v.tooltip, /Workspace day cap/);
  assert.match(v.tooltip, /\/budget/);
});

test('a model without a price shows its token cap', () => {
  const unpriced: Totals = { promptTokens: 1_500_000, completionTokens: 0, cachedTokens: 0, costKnown: false };
  const spend: Spend = { sessionUsd: 0, sessionCapUsd: undefined, dayUsd: 0, workspaceDayUsd: 0, sessionTokens: 1_500_000, tokenCap: 2_000_000 };
  assert.equal(statusView({ totals: unpriced, spend }).text, '$(hubot) agent: 1.5M tok · cost unknown (1.5M of 2M tok cap)');
});

test('without a cap the status bar is as before', () => {
  assert.equal(statusView({ totals }).text, '$(hubot) agent: 412k tok · $0.820');
});

// "agent-lsp: Raise Spend Cap" sends /budget with the amount typed.
test('the Raise Spend Cap command sends /budget with a positive amount only', () => {
  assert.equal(budgetPrompt(' $2.50 '), '/budget sessionUsd=2.5');
  assert.equal(budgetPrompt('10'), '/budget sessionUsd=10');
  for (const bad of ['', '0', '-1', 'ten', '1; rm -rf ~']) assert.equal(budgetPrompt(bad), undefined, bad);
});
