import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeyVariable, daemonEnvironment, hasApiKey, initializationOptions, needsRestart, readSettings, secretKey, type AgentSettings } from '../logic/settings';

const fromObject = (o: Record<string, unknown>) => readSettings((k) => o[k]);
const defaults: AgentSettings = { path: 'agent-lsp', provider: '', model: '', baseUrl: '', apiKeyEnv: '', mcpServers: {}, autoSave: true, mode: '', completion: { dialect: '', baseUrl: '', model: '', apiKeyEnv: '', languages: [] } };

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
  }), { provider: 'anthropic', model: 'claude', baseURL: 'http://127.0.0.1:9/anthropic', apiKeyEnv: 'MY_KEY', mcpServers: servers, mode: 'ask' });
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
