import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCost, formatTokens, statusView } from '../logic/status';
import { RestartPolicy } from '../logic/restartPolicy';
import { editedUris } from '../logic/workspaceEdit';
import { promptParams } from '../protocol';

test('formatTokens and formatCost', () => {
  const cases: Array<[number, string]> = [[0, '0'], [950, '950'], [1000, '1k'], [1234, '1.23k'], [12_345, '12.3k'], [999_999, '1000k'], [1_234_567, '1.23M']];
  for (const [n, want] of cases) assert.equal(formatTokens(n), want, String(n));
  assert.deepEqual([0, 0.00031, 0.0123, 1.5].map(formatCost), ['$0', '$0.0003', '$0.012', '$1.50']);
});

test('statusView: idle, busy with usage, down', () => {
  const totals = { promptTokens: 1900, completionTokens: 65, cachedTokens: 896, cost: 0.0004 };
  assert.equal(statusView({}).text, '$(hubot) agent');
  assert.equal(statusView({ progress: 'Running edit_file', totals }).text, '$(sync~spin) agent: Running edit_file · 1.97k tok · $0.0004');
  assert.equal(statusView({ totals }).text, '$(hubot) agent: 1.97k tok · $0.0004');
  assert.match(statusView({ totals }).tooltip, /1900 prompt tokens \(896 cached\), 65 completion tokens/);
  assert.equal(statusView({ down: 'stopped', progress: 'x' }).text, '$(warning) agent: stopped');
});

test('statusView shows the mode, and the tooltip the mode and model', () => {
  const totals = { promptTokens: 1900, completionTokens: 65, cachedTokens: 896, cost: 0.0004 };
  const model = { provider: 'anthropic', model: 'deepseek-pro', baseURL: 'https://api.deepseek.com/anthropic' };
  assert.equal(statusView({ mode: 'ask' }).text, '$(hubot) agent [ask]');
  assert.equal(statusView({ mode: 'plan', progress: 'Thinking', totals }).text, '$(sync~spin) agent [plan]: Thinking · 1.97k tok · $0.0004');
  const tip = statusView({ mode: 'auto-edit', model }).tooltip.split('\n');
  assert.deepEqual(tip.slice(1), ['Mode: auto-edit ("agent-lsp: Set Mode")', 'Model: deepseek-pro (anthropic) ("agent-lsp: Switch Model")']);
});

test('RestartPolicy restarts until too many crashes fall within the window', () => {
  const p = new RestartPolicy(2, 1000);
  assert.equal(p.onCrash(0), true);
  assert.equal(p.onCrash(100), true);
  assert.equal(p.onCrash(200), false);
  assert.equal(p.onCrash(1150), true, 'the first two crashes left the window');
  p.reset();
  assert.equal(p.recentCrashes, 0);
});

test('editedUris lists changed and created documents once', () => {
  assert.deepEqual(editedUris({
    documentChanges: [
      { kind: 'create', uri: 'file:///w/new.go' },
      { textDocument: { uri: 'file:///w/new.go' } },
      { textDocument: { uri: 'file:///w/a.go' } },
      { kind: 'delete', uri: 'file:///w/gone.go' },
      { kind: 'rename', oldUri: 'file:///w/o.go', newUri: 'file:///w/n.go' } as { kind: string; newUri: string },
    ],
    changes: { 'file:///w/b.go': [] },
  }), ['file:///w/new.go', 'file:///w/a.go', 'file:///w/n.go', 'file:///w/b.go']);
  assert.deepEqual(editedUris({}), []);
});

test('promptParams leaves out what is not set', () => {
  assert.deepEqual(promptParams('hi'), { prompt: 'hi' });
  const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 3 } };
  assert.deepEqual(promptParams('hi', { sessionId: 's', context: { uri: 'file:///a', range }, workDoneToken: 't' }),
    { prompt: 'hi', sessionId: 's', context: { uri: 'file:///a', range }, workDoneToken: 't' });
  assert.deepEqual(promptParams('hi', { context: { uri: 'file:///a' } }), { prompt: 'hi', context: { uri: 'file:///a' } });
});
