import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledBinary, daemonProgram } from '../logic/binaryPath';

const ext = '/home/u/.vscode/extensions/agent-lsp.agent-lsp-0.1.0-linux-x64';
const onPath = { PATH: ['/usr/bin', '/opt/bin'].join(':') };

function files(...paths: string[]): (p: string) => boolean {
  const set = new Set(paths);
  return (p) => set.has(p);
}

test('daemonProgram: the bundled binary before PATH when agentLsp.path is not set', () => {
  const exists = files(`${ext}/bin/agent-lsp`, '/opt/bin/agent-lsp');
  assert.equal(daemonProgram('agent-lsp', ext, onPath, exists, 'linux'), `${ext}/bin/agent-lsp`);
  assert.equal(daemonProgram('', ext, onPath, exists, 'linux'), `${ext}/bin/agent-lsp`);
});

test('daemonProgram: PATH when the .vsix has no binary (the generic one)', () => {
  assert.equal(daemonProgram('agent-lsp', ext, onPath, files('/opt/bin/agent-lsp'), 'linux'), '/opt/bin/agent-lsp');
  assert.equal(daemonProgram('agent-lsp', ext, onPath, files(), 'linux'), undefined);
});

test('daemonProgram: the user setting wins over the bundled binary, even when it names nothing', () => {
  const exists = files(`${ext}/bin/agent-lsp`, '/home/u/go/bin/agent-lsp', '/opt/bin/my-agent');
  assert.equal(daemonProgram('/home/u/go/bin/agent-lsp', ext, onPath, exists, 'linux'), '/home/u/go/bin/agent-lsp');
  assert.equal(daemonProgram('my-agent', ext, onPath, exists, 'linux'), '/opt/bin/my-agent');
  // A wrong path is reported as missing, not silently replaced by another binary.
  assert.equal(daemonProgram('/missing/agent-lsp', ext, onPath, exists, 'linux'), undefined);
});

test('bundledBinary: agent-lsp.exe on Windows', () => {
  assert.equal(bundledBinary(ext, 'linux'), `${ext}/bin/agent-lsp`);
  assert.match(bundledBinary('C:\\ext', 'win32'), /bin[\\/]agent-lsp\.exe$/);
  const exists = files(bundledBinary('C:\\ext', 'win32'));
  assert.equal(daemonProgram('agent-lsp', 'C:\\ext', { PATH: '' }, exists, 'win32'), bundledBinary('C:\\ext', 'win32'));
});
