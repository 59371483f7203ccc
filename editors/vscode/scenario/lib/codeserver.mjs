// code-server as the scenario runs it: the extension's .vsix installed into
// a fresh extensions dir, then the server started on a free loopback port
// with no auth, no telemetry and a fresh user-data dir, in a process group
// of its own so stop() ends it together with the extension host and the
// agent-lsp daemon under it.

import { spawn, execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The user settings of the scenario's VS Code. They name the daemon and the
 * fake model and quieten VS Code; they do not touch diffEditor.codeLens,
 * which the extension's configurationDefaults must turn on by itself.
 */
export function userSettings(cfg) {
  return {
    'agentLsp.path': cfg.agentLsp,
    'agentLsp.provider': cfg.provider ?? 'openai', // the dialect of cfg.modelURL
    'agentLsp.baseUrl': cfg.modelURL,
    'agentLsp.model': 'deepseek-flash',
    'agentLsp.apiKeyEnv': 'none',
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    // cfg.workspaceTrust: VS Code's workspace trust on, folders opening
    // untrusted (restricted mode) without the startup question.
    'security.workspace.trust.enabled': Boolean(cfg.workspaceTrust),
    'security.workspace.trust.startupPrompt': 'never',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'window.title': 'scenario',
    'workbench.colorTheme': 'Default Dark Modern',
    'editor.minimap.enabled': false,
    // The chat beside the editor, at full height, where VS Code's own chat would be.
    'workbench.panel.defaultLocation': 'right',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'files.autoSave': 'off',
    ...cfg.settings, // the test's own (inline completion's model)
  };
}

/** env is the environment of code-server and everything under it: a private home. */
function env(cfg) {
  return {
    PATH: `${cfg.nodeBin}:${process.env.PATH ?? ''}`,
    HOME: cfg.home,
    XDG_CONFIG_HOME: join(cfg.home, 'config'),
    XDG_STATE_HOME: join(cfg.home, 'state'),
    XDG_DATA_HOME: join(cfg.home, 'data'),
    XDG_CACHE_HOME: join(cfg.home, 'cache'),
    LANG: 'C.UTF-8',
    AGENT_LSP_LOG: process.env.AGENT_LSP_LOG ?? '',
    ...cfg.env, // the test's own (a canary a hostile folder names as its key)
  };
}

/**
 * start installs the .vsix and starts code-server on cfg.workspace; it
 * resolves with {url, stop} once the server listens.
 */
export async function start(cfg, log) {
  const userData = join(cfg.home, 'user-data');
  const extensions = join(cfg.home, 'extensions');
  mkdirSync(extensions, { recursive: true });
  // User settings, and the same as the remote machine's: in a remote window
  // (code-server's) VS Code reads machine-scoped settings such as
  // agentLsp.path only from Machine/settings.json.
  for (const dir of ['User', 'Machine']) {
    mkdirSync(join(userData, dir), { recursive: true });
    writeFileSync(join(userData, dir, 'settings.json'), JSON.stringify(userSettings(cfg), null, 2));
  }
  const configFile = join(cfg.home, 'code-server.yaml');
  writeFileSync(configFile, 'auth: none\n');
  const base = [cfg.codeServer, '--config', configFile, '--user-data-dir', userData, '--extensions-dir', extensions];

  const t0 = Date.now();
  await run(cfg.node, [...base, '--install-extension', cfg.vsix, '--force'], { env: env(cfg), timeout: 60_000 });
  log(`installed ${cfg.vsix} in ${Date.now() - t0} ms`);

  const args = [...base, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check',
    ...(cfg.workspaceTrust ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override', '--ignore-last-opened', cfg.workspace];
  const child = spawn(cfg.node, args, { env: env(cfg), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = createWriteStream(join(cfg.artifacts, 'code-server.log'));
  child.stdout.pipe(out);
  child.stderr.pipe(out);

  let exited = false;
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => {
    exited = true;
    resolve(`code-server exited (${code ?? signal})`);
  }));
  const stop = async () => {
    if (exited) return;
    // The whole group: code-server, its extension host and the daemon.
    try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
    const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
    await exit;
    clearTimeout(timer);
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* the group is gone */ }
  };

  const listening = new Promise((resolve) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d.toString();
      const m = /HTTP server listening on (http:\/\/[^\s]+)/.exec(buf);
      if (m) resolve(m[1].replace(/\/$/, ''));
    });
  });
  const timeout = new Promise((resolve) => setTimeout(() => resolve('code-server did not listen within 30 s'), 30_000).unref());
  const url = await Promise.race([listening, exit, timeout]);
  if (!url.startsWith('http')) {
    await stop();
    throw new Error(url);
  }
  log(`code-server listening on ${url} after ${Date.now() - t0} ms`);
  return { url, stop, pid: child.pid };
}
