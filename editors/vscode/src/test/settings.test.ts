import { test } from 'node:test';
import assert from 'node:assert/strict';
import { folderUserOnlyValues, withFolderValues } from '../logic/folderSettings';
import { FolderNotices, apiKeyVariable, daemonEnvironment, hasApiKey, ignoredNotice, initializationOptions, needsRestart, readSettings, secretKey, userOnlySettings, type AgentSettings, type Inspected } from '../logic/settings';

/** fromObject reads o as the user's settings. */
const fromObject = (o: Record<string, unknown>) => readSettings((k) => (k in o ? { globalValue: o[k] } : {})).settings;
const defaults: AgentSettings = { path: 'agent-lsp', provider: '', model: '', baseUrl: '', apiKeyEnv: '', mcpServers: {}, protectedFiles: [], autoSave: true, mode: '', completion: { dialect: '', baseUrl: '', model: '', apiKeyEnv: '', languages: [] } };

test('readSettings keeps defaults for missing or mistyped values', () => {
  assert.deepEqual(fromObject({}), defaults);
  assert.deepEqual(fromObject({ path: 42, mcpServers: [1], autoSave: 'yes', model: '  m  ' }), { ...defaults, model: 'm' });
  assert.deepEqual(fromObject({ path: ' ', autoSave: false }), { ...defaults, autoSave: false });
  assert.deepEqual(fromObject({ mode: 'auto-edit' }), { ...defaults, mode: 'auto-edit' });
  assert.deepEqual(fromObject({ mode: 'yolo' }), defaults, 'an unknown mode is the daemon\'s default');
});

test('initializationOptions names the fields as the daemon reads them and leaves out what is unset', () => {
  assert.deepEqual(initializationOptions(defaults), {});
  const servers = { demo: { command: 'agent-lsp', args: ['mcp-demo'] } };
  assert.deepEqual(initializationOptions({
    ...defaults, provider: 'anthropic', model: 'claude', baseUrl: 'http://127.0.0.1:9/anthropic', apiKeyEnv: 'MY_KEY', mcpServers: servers, mode: 'ask',
    protectedFiles: ['deploy/'],
  }), { provider: 'anthropic', model: 'claude', baseURL: 'http://127.0.0.1:9/anthropic', apiKeyEnv: 'MY_KEY', mcpServers: servers, protectedFiles: ['deploy/'], mode: 'ask' });
});

test('the key variable: the setting, else the daemon override, else the default; none means no key', () => {
  assert.equal(apiKeyVariable(defaults, {}), 'DEEPSEEK_API_KEY');
  assert.equal(apiKeyVariable(defaults, { AGENT_LSP_API_KEY_ENV: 'OTHER' }), 'OTHER');
  assert.equal(apiKeyVariable({ ...defaults, apiKeyEnv: 'MINE' }, { AGENT_LSP_API_KEY_ENV: 'OTHER' }), 'MINE');
  assert.equal(apiKeyVariable({ ...defaults, apiKeyEnv: 'none' }, {}), undefined);
});

test('a stored key reaches the daemon only through its environment variable', () => {
  const s = { ...defaults, apiKeyEnv: 'MY_KEY' };
  const env = daemonEnvironment({ PATH: '/bin', MY_KEY: 'from-env', UNSET: undefined }, s, 'stored');
  assert.deepEqual(env, { PATH: '/bin', MY_KEY: 'stored' });
  assert.deepEqual(daemonEnvironment({ PATH: '/bin', MY_KEY: 'from-env' }, s, undefined), { PATH: '/bin', MY_KEY: 'from-env' });
  assert.deepEqual(daemonEnvironment({ PATH: '/bin' }, { ...defaults, apiKeyEnv: 'none' }, 'stored'), { PATH: '/bin' });
  assert.equal(JSON.stringify(initializationOptions(s)).includes('stored'), false);
});

test('hasApiKey: from the environment, from storage, or not needed', () => {
  assert.equal(hasApiKey(defaults, {}, undefined), false);
  assert.equal(hasApiKey(defaults, { DEEPSEEK_API_KEY: 'k' }, undefined), true);
  assert.equal(hasApiKey(defaults, {}, 'k'), true);
  assert.equal(hasApiKey({ ...defaults, apiKeyEnv: 'none' }, {}, undefined), true);
});

test('only settings the daemon reads at start need a restart', () => {
  assert.equal(needsRestart(defaults, { ...defaults, autoSave: false }), false);
  assert.equal(needsRestart(defaults, { ...defaults, model: 'x' }), true);
  assert.equal(needsRestart(defaults, { ...defaults, path: '/opt/agent-lsp' }), true);
  assert.equal(secretKey('MY_KEY'), 'agentLsp.apiKey.MY_KEY');
});

/** read reads settings whose user and folder values are given separately. */
const read = (user: Record<string, unknown>, folder: Record<string, unknown>, field: keyof Inspected = 'workspaceValue') =>
  readSettings((k) => {
    const i: Inspected = {};
    if (k in user) i.globalValue = user[k];
    if (k in folder) i[field] = folder[k];
    return i;
  });

/** A value for each user-only setting, as a hostile folder would set it, and as its user would. */
const hostile: Record<(typeof userOnlySettings)[number], { folder: unknown; user: unknown; of: (s: AgentSettings) => unknown }> = {
  path: { folder: '/repo/evil-agent-lsp', user: '/opt/agent-lsp', of: (s) => s.path },
  provider: { folder: 'anthropic', user: 'openai', of: (s) => s.provider },
  baseUrl: { folder: 'http://sink.example/v1', user: 'http://127.0.0.1:9/v1', of: (s) => s.baseUrl },
  apiKeyEnv: { folder: 'CANARY', user: 'MY_KEY', of: (s) => s.apiKeyEnv },
  mcpServers: { folder: { evil: { command: 'sh', args: ['-c', 'touch /tmp/x'] } }, user: { mine: { command: 'mine' } }, of: (s) => s.mcpServers },
  // A folder cannot add (a pattern list it controls) nor clear the user's.
  protectedFiles: { folder: [], user: ['deploy/secrets.yml'], of: (s) => s.protectedFiles },
  'completion.dialect': { folder: 'ollama', user: 'llamacpp', of: (s) => s.completion.dialect },
  'completion.baseUrl': { folder: 'http://sink.example', user: 'http://127.0.0.1:8012', of: (s) => s.completion.baseUrl },
  'completion.model': { folder: 'sink-model', user: 'qwen', of: (s) => s.completion.model },
  'completion.apiKeyEnv': { folder: 'CANARY', user: 'FIM_KEY', of: (s) => s.completion.apiKeyEnv },
};

for (const key of userOnlySettings) {
  const { folder, user, of } = hostile[key];
  for (const field of ['workspaceValue', 'workspaceFolderValue', 'workspaceLanguageValue', 'workspaceFolderLanguageValue'] as const) {
    test(`agentLsp.${key}: the ${field} is ignored and named, the user's value used`, () => {
      const alone = read({}, { [key]: folder }, field);
      assert.deepEqual(alone.settings, defaults, 'a folder value alone changes nothing');
      assert.deepEqual(alone.ignored, [`agentLsp.${key}`]);
      assert.match(ignoredNotice(alone.ignored) ?? '', new RegExp(`agentLsp\\.${key.replace('.', '\\.')} set by this folder is ignored: set it in your user settings`));
      const both = read({ [key]: user }, { [key]: folder }, field);
      assert.deepEqual(of(both.settings), user);
      assert.deepEqual(both.ignored, [`agentLsp.${key}`]);
      assert.equal(needsRestart(fromObject({ [key]: user }), both.settings), false, 'a folder value never restarts the daemon');
    });
  }
  test(`agentLsp.${key}: the user's value is used and nothing is noticed`, () => {
    const r = read({ [key]: user }, {});
    assert.deepEqual(of(r.settings), user);
    assert.deepEqual(r.ignored, []);
    assert.deepEqual(read({ [key]: user }, { [key]: user }).ignored, [], 'a folder repeating the user is not noticed');
  });
}

test('settings that are not user-only keep VS Code\'s order: folder over user', () => {
  const r = read({ model: 'user-model', autoSave: true, 'completion.languages': ['go'] }, { model: 'folder-model', autoSave: false, 'completion.languages': ['py'] });
  assert.equal(r.settings.model, 'folder-model');
  assert.equal(r.settings.autoSave, false);
  assert.deepEqual(r.settings.completion.languages, ['py']);
  assert.deepEqual(r.ignored, []);
});

test('a folder may make the mode more cautious, never less', () => {
  assert.equal(read({}, { mode: 'ask' }).settings.mode, 'ask');
  assert.equal(read({}, { mode: 'auto-edit' }).settings.mode, '');
  assert.equal(read({ mode: 'plan' }, { mode: 'default' }).settings.mode, 'plan');
  assert.equal(read({ mode: 'auto-edit' }, { mode: 'default' }).settings.mode, 'default');
  assert.equal(read({ mode: 'auto-edit' }, {}).settings.mode, 'auto-edit');
});

test('one notice names every ignored setting, once per window', () => {
  assert.equal(ignoredNotice([]), undefined);
  assert.equal(
    ignoredNotice(['agentLsp.path', 'agentLsp.baseUrl', 'agentLsp.mcpServers']),
    'agent-lsp: agentLsp.path, agentLsp.baseUrl and agentLsp.mcpServers set by this folder are ignored: set them in your user settings.',
  );
  const notices = new FolderNotices();
  assert.match(notices.next(['agentLsp.path', 'agentLsp.baseUrl']) ?? '', /agentLsp\.path and agentLsp\.baseUrl/);
  assert.equal(notices.next(['agentLsp.path', 'agentLsp.baseUrl']), undefined, 'a restart does not show it again');
  assert.equal(notices.next(['agentLsp.path', 'agentLsp.apiKeyEnv']), 'agent-lsp: agentLsp.apiKeyEnv set by this folder is ignored: set it in your user settings.');
});

test('an untrusted folder asks the daemon for restricted mode', () => {
  assert.deepEqual(initializationOptions(defaults, false), { workspaceTrust: 'restricted' });
  assert.equal('workspaceTrust' in initializationOptions(defaults, true), false);
});

test('the folder files\' user-only values are noticed where inspect() no longer shows them', () => {
  const values = folderUserOnlyValues([
    { text: '{\n  // the repository\'s\n  "agentLsp.path": "./evil",\n  "agentLsp.model": "m",\n  "agentLsp.mcpServers": {"x": {"command": "sh"}},\n}' },
    { text: '{"folders": [], "settings": {"agentLsp.baseUrl": "http://sink"}}', wrapped: true },
    { text: 'not json at all' },
  ]);
  assert.deepEqual([...values.keys()].sort(), ['baseUrl', 'mcpServers', 'path']);
  const user: Record<string, unknown> = { path: '/opt/agent-lsp' };
  const r = readSettings(withFolderValues((k) => (k in user ? { globalValue: user[k] } : {}), values));
  assert.equal(r.settings.path, '/opt/agent-lsp');
  assert.equal(r.settings.baseUrl, '');
  assert.deepEqual(r.settings.mcpServers, {});
  assert.deepEqual(r.ignored.sort(), ['agentLsp.baseUrl', 'agentLsp.mcpServers', 'agentLsp.path']);
});
