import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionView, ghostItems, inlineParams, lspTrigger, vscodeTrigger } from '../logic/inline';
import { completionOptions, initializationOptions, readSettings } from '../logic/settings';
import { statusView } from '../logic/status';

const at = (line: number, character: number) => ({ line, character });

test('inlineParams: VS Code trigger kinds become LSP ones (Invoke 0 → 1, Automatic 1 → 2)', () => {
  const invoked = inlineParams('file:///w/a.go', at(3, 7), vscodeTrigger.invoke);
  assert.deepEqual(invoked, { textDocument: { uri: 'file:///w/a.go' }, position: at(3, 7), context: { triggerKind: lspTrigger.invoked } });
  assert.equal(inlineParams('file:///w/a.go', at(0, 0), vscodeTrigger.automatic).context.triggerKind, lspTrigger.automatic);
});

test('inlineParams carries the suggest widget\'s selected item', () => {
  const selected = { range: { start: at(2, 4), end: at(2, 6) }, text: 'Println' };
  const p = inlineParams('file:///w/a.go', at(2, 6), vscodeTrigger.automatic, selected);
  assert.deepEqual(p.context.selectedCompletionInfo, selected);
  assert.notEqual(p.context.selectedCompletionInfo?.range, selected.range, 'a copy, not VS Code\'s object');
});

test('ghostItems keeps the range as sent: UTF-16 columns, the replaced closer included', () => {
  // "fmt.Println(é|)": the cursor after é (one UTF-16 unit), the model wrote ")" again.
  const range = { start: at(4, 14), end: at(4, 15) };
  assert.deepEqual(ghostItems({ items: [{ insertText: '"😀")', range }] }, false), [{ insertText: '"😀")', range }]);
  // A list given as a bare array, an item without a range (inserted at the cursor).
  assert.deepEqual(ghostItems([{ insertText: 'x := 1' }], false), [{ insertText: 'x := 1' }]);
  assert.deepEqual(ghostItems({ items: [{ insertText: { kind: 'snippet', value: 'y' }, filterText: 'y' }] }, false), [{ insertText: 'y', filterText: 'y' }]);
});

test('ghostItems: an empty list, null and empty texts are no items', () => {
  assert.deepEqual(ghostItems({ items: [] }, false), []);
  assert.deepEqual(ghostItems(null, false), []);
  assert.deepEqual(ghostItems(undefined, false), []);
  assert.deepEqual(ghostItems({ items: [{ insertText: '' }] }, false), []);
});

test('ghostItems: an answer that arrives after cancellation shows nothing', () => {
  assert.deepEqual(ghostItems({ items: [{ insertText: 'late', range: { start: at(0, 0), end: at(0, 0) } }] }, true), []);
});

test('completion settings: off by default, on once a dialect, base URL or model is named', () => {
  const get = (o: Record<string, unknown>) => readSettings((k) => (k in o ? { globalValue: o[k] } : {})).settings;
  assert.equal(completionOptions(get({}).completion), undefined);
  assert.equal(initializationOptions(get({ 'completion.languages': ['go'], 'completion.debounceMs': 10 })).completion, undefined);
  assert.deepEqual(initializationOptions(get({
    'completion.dialect': 'deepseek', 'completion.baseUrl': ' http://127.0.0.1:9 ', 'completion.model': 'm', 'completion.apiKeyEnv': 'none',
    'completion.languages': ['go', 3, ' '], 'completion.debounceMs': 0, 'completion.maxTokens': 64,
  })).completion, { dialect: 'deepseek', baseURL: 'http://127.0.0.1:9', model: 'm', apiKeyEnv: 'none', languages: ['go'], debounceMs: 0, maxTokens: 64 });
  const c = get({ 'completion.model': 'm', 'completion.debounceMs': -1, 'completion.maxTokens': 0 }).completion;
  assert.deepEqual(completionOptions(c), { model: 'm' }, 'a negative debounce and a zero budget are the daemon\'s defaults');
});

test('completionView: nothing when idle, a spinner while completing, the error in the tooltip', () => {
  assert.deepEqual(completionView(undefined), { text: '' });
  assert.deepEqual(completionView({ uri: 'file:///a', state: 'idle' }), { text: '' });
  assert.match(completionView({ uri: 'file:///a', state: 'completing' }).text, /completing/);
  const err = completionView({ uri: 'file:///a', state: 'error', message: 'HTTP 401' });
  assert.match(err.text, /completion/);
  assert.match(err.tooltip ?? '', /HTTP 401/);
});

test('statusView: inline completion\'s state after the agent\'s, its error in the tooltip', () => {
  const uri = 'file:///w/a.go';
  assert.equal(statusView({ completion: { uri, state: 'idle' } }).text, '$(hubot) agent');
  assert.equal(statusView({ completion: { uri, state: 'completing' } }).text, '$(hubot) agent · $(loading~spin) completing');
  const failed = statusView({ progress: 'Thinking', completion: { uri, state: 'error', message: 'HTTP 500' } });
  assert.equal(failed.text, '$(sync~spin) agent: Thinking · $(error) completion');
  assert.match(failed.tooltip, /Inline completion failed: HTTP 500/);
});
