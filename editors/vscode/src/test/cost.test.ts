import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCost, statusView } from '../logic/status';
import type { Totals } from '../protocol';

// A model without a price (a local server with no preset price) sends no
// cost: totals carry costKnown false and no cost field (lsp/testdata/wire).
test('an unknown cost is shown as unknown, never as a number', () => {
  assert.equal(formatCost(undefined), 'cost unknown');
  const totals: Totals = { promptTokens: 1900, completionTokens: 65, cachedTokens: 0, costKnown: false };
  assert.equal(statusView({ totals }).text, '$(hubot) agent: 1.97k tok · cost unknown');
  assert.match(statusView({ totals }).tooltip, /65 completion tokens, cost unknown$/m);
});
