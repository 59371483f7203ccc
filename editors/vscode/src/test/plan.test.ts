import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRows, planSummary, statusOf } from '../logic/plan';
import type { PlanItem } from '../protocol';

test('plan rows carry their status icon, in the plan order', () => {
  const items: PlanItem[] = [
    { content: 'Read the   handler\n', status: 'completed' },
    { content: 'Add the test', status: 'in_progress' },
    { content: 'Fix the bug', status: 'pending' },
  ];
  const rows = planRows(items);
  assert.deepEqual(rows.map((r) => [r.label, r.status, r.icon, r.color, r.description]), [
    ['Read the handler', 'completed', 'pass-filled', 'testing.iconPassed', 'done'],
    ['Add the test', 'in_progress', 'sync~spin', 'charts.blue', 'in progress'],
    ['Fix the bug', 'pending', 'circle-large-outline', undefined, 'pending'],
  ]);
  assert.equal(rows[0].tooltip, '1. Read the   handler\n (done)');
  assert.equal(planSummary(items), '1/3 done');
});

test('an empty plan has no rows and no summary; unknown statuses count as pending', () => {
  assert.deepEqual(planRows([]), []);
  assert.equal(planSummary([]), '');
  assert.equal(statusOf('blocked'), 'pending');
  const odd = [{ content: '', status: 'blocked' }] as unknown as PlanItem[];
  assert.deepEqual(planRows(odd).map((r) => [r.label, r.icon]), [['(empty)', 'circle-large-outline']]);
  assert.equal(planSummary(odd), '0/1 done');
});
