// The code-server scenario: a real VS Code with the extension, driven in
// headless Chromium as a user drives it (steps.mjs). Run by the Go test
// editors/vscode/e2e/scenario_test.go, which starts the strict fake model,
// builds the daemon and passes both here:
//
//   node24 run.mjs config.json
//
// It prints a JSON summary {ok, failures, steps, shots} on stdout, logs on
// stderr, a screenshot per step into config.artifacts, and exits 1 when a
// step failed. code-server and Chromium are ended before it exits.

import { readFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { start } from './lib/codeserver.mjs';
import { Ui } from './lib/ui.mjs';
import { steps } from './lib/steps.mjs';
import { hostileSettingsSteps, restrictedSteps } from './lib/steps_hostile.mjs';
import { dialogSteps } from './lib/steps_dialog.mjs';
import { errorSteps } from './lib/steps_errors.mjs';
import { askSteps } from './lib/steps_ask.mjs';
import { vsixSteps } from './lib/steps_vsix.mjs';
import { queueSteps } from './lib/steps_queue.mjs';

/**
 * The flags Debian's Chromium needs here: no sandbox (root, a container), no GPU, nothing phoning home.
 * Site isolation is off so VS Code's webview frames stay in the page's process. The chat itself is
 * not read through puppeteer's frames (ui.mjs chatEval says why) but through the DOM.
 */
const chromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-site-isolation-trials', '--disable-features=IsolateOrigins,site-per-process'];

const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t0 = Date.now();
const log = (m) => process.stderr.write(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s ${m}\n`);
const summary = { ok: false, failures: [], steps: [], shots: [] };

let server;
let browser;
const cleanup = async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop().catch(() => undefined);
};
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => void cleanup().finally(() => process.exit(1)));

/**
 * noteGroup records the process group of a detached child (code-server,
 * Chromium) in cfg.pidFile, so the Go test can end it even when this
 * runner is killed before its own cleanup.
 */
const noteGroup = (pid) => {
  if (cfg.pidFile && pid) appendFileSync(cfg.pidFile, `${pid}\n`);
};

let ui;
try {
  mkdirSync(cfg.artifacts, { recursive: true });
  server = await start(cfg, log);
  noteGroup(server.pid);
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...chromiumFlags, `--user-data-dir=${join(cfg.home, 'chromium')}`],
    defaultViewport: { width: 1400, height: 900 },
  });
  noteGroup(browser.process()?.pid);
  const page = await browser.newPage();
  ui = new Ui(page, cfg.artifacts, log);
  // cfg.suite: the main scenario, or one of the hostile folder's (steps_hostile.mjs).
  const suite = { hostileSettings: hostileSettingsSteps, restricted: restrictedSteps, dialog: dialogSteps, errors: errorSteps, ask: askSteps, vsix: vsixSteps, queue: queueSteps }[cfg.suite] ?? steps;
  for (const [name, step] of suite) {
    const s0 = Date.now();
    log(`step ${name}`);
    try {
      await step(ui, cfg, server.url);
    } catch (err) {
      summary.failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      await ui.shot(`failed-${name}`).catch(() => undefined);
      const qp = await ui.quickPick().catch(() => undefined);
      if (qp) log(`quick input at the failure: ${JSON.stringify(qp)}`);
      const entries = await ui.chatEntries(500).catch(() => undefined);
      if (entries) log(`chat at the failure: ${JSON.stringify(entries)}`);
      else log(`frames at the failure:\n${await ui.frameReport().catch((e) => e.message)}`);
      break;
    } finally {
      summary.steps.push({ name, ms: Date.now() - s0 });
    }
  }
  summary.ok = summary.failures.length === 0;
} catch (err) {
  summary.failures.push(err instanceof Error ? err.stack ?? err.message : String(err));
} finally {
  summary.shots = ui?.shots ?? [];
  await cleanup();
  log(`done in ${Date.now() - t0} ms`);
  process.stdout.write(JSON.stringify(summary) + '\n');
  process.exitCode = summary.ok ? 0 : 1;
}
