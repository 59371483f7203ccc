import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OneAtATime, findProgram, isLoopbackUrl, noBinary, promptMistake, providerMessage } from '../logic/mistakes';

test('promptMistake: the daemon missing-key text is noKey with Set API Key', () => {
  const m = promptMistake('round 1: no API key: the environment variable DEEPSEEK_API_KEY is not set. Run "agent-lsp: Set API Key", or name another variable in the agentLsp.apiKeyEnv setting');
  assert.equal(m.kind, 'noKey');
  assert.match(m.message, /DEEPSEEK_API_KEY/);
  assert.deepEqual(m.fixes.map((f) => f.title), ['Set API Key']);
});

test('promptMistake: a 401 is the provider message in one line, without JSON or round prefixes', () => {
  const body = '{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}';
  const m = promptMistake(`round 1: round 1: model API answered 401 Unauthorized: ${body}`);
  assert.equal(m.kind, 'keyRejected');
  assert.equal(m.message, 'agent-lsp: the model API rejected the key (401: Authentication Fails, Your api key: ****abcd is invalid).');
  assert.doesNotMatch(m.message, /[{}]|round/);
  assert.deepEqual(m.fixes.map((f) => f.title), ['Set API Key']);
  // Anthropic's shape, and an excerpt cut short at 500 bytes.
  assert.equal(providerMessage('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'), 'invalid x-api-key');
  assert.equal(providerMessage('{"error":{"message":"bad \\"key\\"\\nagain","type":"auth'), 'bad "key" again');
  assert.equal(providerMessage('{"error":{"type":"x"}}'), '');
  assert.equal(providerMessage('Unauthorized'), 'Unauthorized');
  assert.equal(promptMistake('model API answered 403 Forbidden').kind, 'keyRejected');
});

test('promptMistake: other statuses and unreachable servers are one line naming the URL', () => {
  const m = promptMistake('round 2: model API answered 500 Internal Server Error (after 4 attempts): {"error":{"message":"boom"}}');
  assert.equal(m.kind, 'other');
  assert.equal(m.message, 'agent-lsp: the model API answered 500: boom.');
  const u = promptMistake('round 1: Post "http://127.0.0.1:9/v1/chat/completions": dial tcp 127.0.0.1:9: connect: connection refused (after 4 attempts)');
  assert.equal(u.kind, 'unreachable');
  assert.equal(u.message, 'agent-lsp: cannot reach http://127.0.0.1:9/v1/chat/completions (connection refused).');
  const h = promptMistake('Post "https://api.nowhere.invalid/v1/chat/completions": dial tcp: lookup api.nowhere.invalid: no such host');
  assert.match(h.message, /cannot reach https:\/\/api\.nowhere\.invalid\/v1\/chat\/completions \(no such host\)/);
  const long = promptMistake(`something\nbroke ${'x'.repeat(400)}`);
  assert.equal(long.kind, 'other');
  assert.ok(!long.message.includes('\n') && long.message.length < 230, long.message);
});

test('noBinary says how to install and offers the install link and Set Path', () => {
  const m = noBinary('agent-lsp');
  assert.match(m.message, /go install github\.com\/agent-lsp\/agent-lsp\/cmd\/agent-lsp@latest/);
  assert.match(m.message, /\.vsix for your platform/);
  assert.match(m.message, /npm install -g agent-lsp/);
  assert.deepEqual(m.fixes.map((f) => f.title), ['How to Install', 'Set Path']);
});

test('findProgram: a path as it is, a bare name on PATH, PATHEXT on Windows', () => {
  const files = new Set(['/opt/bin/agent-lsp', '/usr/bin/other', 'C:\\tools\\agent-lsp.EXE']);
  const exists = (p: string): boolean => files.has(p);
  const env = { PATH: ['/nope', '/opt/bin'].join(':') };
  assert.equal(findProgram('agent-lsp', env, exists, 'linux'), '/opt/bin/agent-lsp');
  assert.equal(findProgram('/opt/bin/agent-lsp', {}, exists, 'linux'), '/opt/bin/agent-lsp');
  assert.equal(findProgram('/missing/agent-lsp', env, exists, 'linux'), undefined);
  assert.equal(findProgram('agent-lsp', { PATH: '/usr/bin' }, exists, 'linux'), undefined);
  assert.equal(findProgram('C:\\tools\\agent-lsp', {}, exists, 'win32'), 'C:\\tools\\agent-lsp.EXE');
});

test('OneAtATime: the same kind is shown once while it is on screen, again after', async () => {
  const once = new OneAtATime();
  let shown = 0;
  let close: (v: string) => void = () => undefined;
  const display = (): Promise<string> => {
    shown++;
    return new Promise((r) => (close = r));
  };
  const first = once.show('noKey', display);
  await once.show('noKey', display);
  await once.show('noKey', display);
  assert.equal(shown, 1);
  void once.show('unreachable', () => Promise.resolve('x'));
  close('Set API Key');
  assert.equal(await first, 'Set API Key');
  void once.show('noKey', display);
  assert.equal(shown, 2);
});

test('isLoopbackUrl: the hosts the daemon asks no key for', () => {
  for (const u of ['http://127.0.0.1:8080/v1', 'http://localhost:11434', 'http://LOCALHOST./v1', 'http://ollama.localhost/v1', 'http://[::1]:9/v1', 'http://127.1.2.3/v1']) assert.ok(isLoopbackUrl(u), u);
  for (const u of ['https://api.deepseek.com', 'http://128.0.0.1/', 'http://localhost.example.com', '', undefined, 'not a url']) assert.ok(!isLoopbackUrl(u), String(u));
});
