#!/usr/bin/env node
// The agent-lsp command of the npm package: it runs the native binary
// that npm installed from the one optional dependency matching this
// machine (@agent-lsp/<platform>-<arch>, chosen by its os and cpu fields,
// the way esbuild and Biome ship theirs), with our arguments and stdio,
// and exits as it exits. Signals we receive are passed on, so the binary
// (an editor's LSP daemon, a chat) ends with this process.
'use strict';

const { spawn } = require('node:child_process');

const target = `${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'agent-lsp.exe' : 'agent-lsp';
let binary;
try {
  binary = require.resolve(`@agent-lsp/${target}/bin/${exe}`);
} catch {
  process.stderr.write(
    `agent-lsp: no binary for ${target}: the optional dependency @agent-lsp/${target} is not installed.\n` +
      'Reinstall without --no-optional / --omit=optional, or download a release binary (see the README).\n',
  );
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (err) => {
  process.stderr.write(`agent-lsp: could not run ${binary}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the binary saw.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
