import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeAt, matchCommands, matchFiles, mentionToken, slashToken, type CompletionSources } from '../logic/completion';
import { isCurrent, presetDetail } from '../logic/models';
import type { CommandInfo, ModelPreset } from '../protocol';

const cmd = (name: string, args: string[] = [], description = ''): CommandInfo =>
  ({ name, description, arguments: args.map((a) => ({ name: a })), source: 'builtin' });
const commands: CommandInfo[] = [
  cmd('/compact', [], 'Compact the conversation'),
  cmd('/clear'),
  cmd('/mode', ['mode'], 'Show or set the mode'),
  cmd('/model', ['model']),
  { name: '/mcp__everything__simple_prompt', description: 'A prompt', arguments: [{ name: 'topic', required: true }], source: 'mcp:everything' },
];
const files = ['README.md', 'cmd/agent-lsp/main.go', 'lsp/server.go', 'lsp/server_test.go', 'my notes.txt', 'server/x.go', 'src/x.go'];
let asked: string[] = [];
const sources: CompletionSources = {
  commands: async () => {
    asked.push('commands');
    return commands;
  },
  files: async () => {
    asked.push('files');
    return files;
  },
};

test('slashToken: the first word while the cursor is in it', () => {
  assert.deepEqual(slashToken('/mo', 3), { start: 0, end: 3, query: 'mo' });
  assert.deepEqual(slashToken('/mode plan', 2), { start: 0, end: 5, query: 'm' });
  assert.equal(slashToken('/mode plan', 7), undefined, 'past the first word');
  assert.equal(slashToken('mode', 2), undefined);
  assert.equal(slashToken('/x', 0), undefined);
});

test('mentionToken: "@" at the start or after white space, up to the end of the word', () => {
  assert.deepEqual(mentionToken('@src', 4), { start: 0, end: 4, query: 'src' });
  assert.deepEqual(mentionToken('look at @lsp/se and', 14), { start: 8, end: 15, query: 'lsp/s' });
  assert.deepEqual(mentionToken('see @x.go#L3-5', 14), { start: 4, end: 14, query: 'x.go#L3-5' });
  assert.deepEqual(mentionToken('@', 1), { start: 0, end: 1, query: '' });
  assert.equal(mentionToken('mail me@example.com', 19), undefined, 'not after white space');
  assert.equal(mentionToken('@a b', 3), undefined, 'the cursor is past the word');
  assert.equal(mentionToken('@a', 0), undefined, 'the cursor is before the "@"');
});

test('matchCommands: prefix first, then a word start, then anywhere; case does not matter', () => {
  assert.deepEqual(matchCommands(commands, 'mo').map((c) => c.name), ['/mode', '/model']);
  assert.deepEqual(matchCommands(commands, 'C').map((c) => c.name), ['/compact', '/clear', '/mcp__everything__simple_prompt']);
  assert.deepEqual(matchCommands(commands, 'simple').map((c) => c.name), ['/mcp__everything__simple_prompt']);
  assert.deepEqual(matchCommands(commands, '').length, 5);
  assert.deepEqual(matchCommands(commands, '', 2).map((c) => c.name), ['/compact', '/clear']);
  assert.deepEqual(matchCommands(commands, 'zzz'), []);
});

test('matchFiles: the file name before the directories, no line range, no path with spaces', () => {
  assert.deepEqual(matchFiles(files, 'ser'), ['lsp/server.go', 'lsp/server_test.go', 'server/x.go']);
  assert.deepEqual(matchFiles(files, 'lsp/ser#L3-5'), ['lsp/server.go', 'lsp/server_test.go']);
  assert.deepEqual(matchFiles(files, 'X.GO'), ['server/x.go', 'src/x.go']);
  assert.deepEqual(matchFiles(files, 'test'), ['lsp/server_test.go']);
  assert.equal(matchFiles(files, 'notes').length, 0);
  assert.deepEqual(matchFiles(files, '', 3), ['README.md', 'cmd/agent-lsp/main.go', 'lsp/server.go']);
});

test('completeAt offers commands, modes and files, each replacing its word', async () => {
  asked = [];
  assert.deepEqual(await completeAt('/mo', 3, sources), {
    start: 0, end: 3, items: [
      { label: '/mode', detail: '[mode] — Show or set the mode', insert: '/mode ' },
      { label: '/model', detail: '[model]', insert: '/model ' },
    ],
  });
  assert.deepEqual(await completeAt('/comp', 5, sources), {
    start: 0, end: 5, items: [{ label: '/compact', detail: 'Compact the conversation', insert: '/compact' }],
  });
  assert.deepEqual((await completeAt('/sim', 4, sources))?.items[0].detail, '<topic> — A prompt');
  assert.deepEqual(asked, ['commands', 'commands', 'commands'], 'files are not listed for a command');

  const mode = await completeAt('/mode a', 7, sources);
  assert.deepEqual(mode?.items.map((i) => i.insert), ['ask', 'auto-edit']);
  assert.deepEqual([mode?.start, mode?.end], [6, 7]);
  assert.deepEqual((await completeAt('/mode ', 6, sources))?.items.map((i) => i.label), ['ask', 'plan', 'default', 'auto-edit']);

  asked = [];
  const mention = await completeAt('explain @lsp/serv#L3-5 please', 17, sources);
  assert.deepEqual(mention, {
    start: 8, end: 22, items: [
      { label: '@lsp/server.go', detail: '', insert: '@lsp/server.go#L3-5 ' },
      { label: '@lsp/server_test.go', detail: '', insert: '@lsp/server_test.go#L3-5 ' },
    ],
  });
  assert.deepEqual(asked, ['files'], 'commands are not listed for a mention');
});

test('completeAt offers nothing for plain text, no match, or a word written out in full', async () => {
  assert.equal(await completeAt('hello', 5, sources), undefined);
  assert.equal(await completeAt('/zzz', 4, sources), undefined);
  assert.equal(await completeAt('@nothing-like-it', 16, sources), undefined);
  assert.equal(await completeAt('/compact', 8, sources), undefined, 'Enter sends it');
  assert.equal(await completeAt('/mode', 5, sources), undefined, 'a full name is not completed to a longer one');
  assert.equal(await completeAt('/mode plan', 10, sources), undefined);
  assert.equal(await completeAt('@src/x.go', 9, sources), undefined);
  assert.equal(await completeAt('/usr/bin/env is', 15, sources), undefined, 'past the first word');
});

test('model presets: a one-line detail and the current one', () => {
  const p: ModelPreset = { id: 'deepseek', provider: 'openai', model: 'deepseek-flash', baseURL: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY',
    contextWindow: 128000, prices: { input: 0.27, cachedInput: 0.07, output: 1.1, peak: { input: 0.5, cachedInput: 0.1, output: 2 } } };
  assert.equal(presetDetail(p), '128k context · $0.27 in / $1.1 out per M tokens (off-peak) · https://api.deepseek.com');
  assert.equal(presetDetail({ id: 'ollama', provider: 'openai', model: 'qwen', baseURL: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'none' }),
    'http://127.0.0.1:11434/v1 · no key');
  assert.equal(isCurrent(p, { provider: 'openai', model: 'deepseek-flash', baseURL: 'https://api.deepseek.com' }), true);
  assert.equal(isCurrent(p, { provider: 'anthropic', model: 'deepseek-flash', baseURL: 'https://api.deepseek.com' }), false);
  assert.equal(isCurrent(p, undefined), false);
});
