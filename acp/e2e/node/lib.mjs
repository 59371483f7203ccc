// What the ACP client scripts of this directory share: the agent process and
// its stream, the schema tap that turns every protocol violation into a
// failure, and the way a script reports to the Go test.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
// The SDK validates what the agent sends it (requests, notifications) with
// these generated schemas but not the results of our own requests; the tap
// checks those with the same schemas. The package does not export the file,
// so it is imported by path.
import * as z from './node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js';

export { acp };

// Failed checks and protocol violations collect here; the summary carries them.
export const failures = [];
export const violations = [];
export const check = (ok, what) => { if (!ok) failures.push(what); return ok; };

// The SDK reports what it rejects (a notification whose params fail the
// schema, a message that is not JSON-RPC, a response to no request) on
// console.error and goes on: each such report is a violation.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  violations.push(`sdk: ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`);
  consoleError(...args);
};

// Schemas of the results the agent owes each of our requests.
const resultSchemas = {
  'initialize': z.zInitializeResponse,
  'session/new': z.zNewSessionResponse,
  'session/load': z.zLoadSessionResponse,
  'session/list': z.zListSessionsResponse,
  'session/resume': z.zResumeSessionResponse,
  'session/close': z.zCloseSessionResponse,
  'session/set_mode': z.zSetSessionModeResponse,
  'session/set_config_option': z.zSetSessionConfigOptionResponse,
  'session/prompt': z.zPromptResponse,
  'session/delete': z.zDeleteSessionResponse,
};

// issues renders a zod error as "path: message" lines.
const issues = (err) => err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

// tap wraps a message stream: it checks what the agent sends against the
// schema and the JSON-RPC envelope, and records every error the SDK answers
// an agent request with (-32602 is a schema failure of the agent's params).
export function tap(stream, log = []) {
  const ours = new Map(); // our request id → method
  const theirs = new Map(); // the agent's request id → method
  const inbound = new TransformStream({
    transform(msg, ctl) {
      log.push({ dir: 'in', msg });
      inspectIn(msg);
      ctl.enqueue(msg);
    },
  });
  const outbound = new TransformStream({
    transform(msg, ctl) {
      log.push({ dir: 'out', msg });
      if ('method' in msg && 'id' in msg) ours.set(msg.id, msg.method);
      if (!('method' in msg) && 'error' in msg) {
        const method = theirs.get(msg.id) ?? '?';
        violations.push(`client answered the agent's ${method} (id ${JSON.stringify(msg.id)}) with error ` +
          `${msg.error.code} ${msg.error.message}: ${JSON.stringify(msg.error.data ?? null)}`);
      }
      if (!('method' in msg)) theirs.delete(msg.id);
      ctl.enqueue(msg);
    },
  });
  outbound.readable.pipeTo(stream.writable).catch(() => {});
  function inspectIn(msg) {
    if (msg === null || typeof msg !== 'object' || msg.jsonrpc !== '2.0') {
      violations.push(`agent sent a message that is not JSON-RPC 2.0: ${JSON.stringify(msg)}`);
      return;
    }
    if ('method' in msg) {
      if ('id' in msg) theirs.set(msg.id, msg.method);
      if (msg.method === 'session/update') {
        const r = z.zSessionNotification.safeParse(msg.params);
        if (!r.success) violations.push(`agent's session/update fails the schema: ${issues(r.error)}: ${JSON.stringify(msg.params)}`);
      }
      return;
    }
    const method = ours.get(msg.id);
    ours.delete(msg.id);
    if (method === undefined) {
      violations.push(`agent answered a request we never sent: ${JSON.stringify(msg)}`);
      return;
    }
    if (('result' in msg) === ('error' in msg)) {
      violations.push(`agent's ${method} response has ${'result' in msg ? 'both' : 'neither'} result and error`);
      return;
    }
    if ('error' in msg) {
      const r = z.zError.safeParse(msg.error);
      if (!r.success) violations.push(`agent's ${method} error fails the schema: ${issues(r.error)}`);
      return;
    }
    const schema = resultSchemas[method];
    if (schema) {
      const r = schema.safeParse(msg.result);
      if (!r.success) violations.push(`agent's ${method} result fails the schema: ${issues(r.error)}: ${JSON.stringify(msg.result)}`);
    }
  }
  return { readable: stream.readable.pipeThrough(inbound), writable: outbound.writable };
}

// startAgent starts config.command in cwd and returns the tapped ACP stream
// over its stdio; exited resolves to the agent's exit {code, signal}.
export function startAgent(command, cwd, log) {
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  return { child, exited, stream: tap(stream, log) };
}

// stopAgent closes the agent's stdin (ACP's end of session) and waits for
// its exit; a kill after graceMs is a failure.
export async function stopAgent(agent, graceMs = 5000) {
  agent.child.stdin.end();
  const timer = setTimeout(() => { failures.push(`agent did not exit within ${graceMs} ms of stdin closing`); agent.child.kill('SIGKILL'); }, graceMs);
  const exit = await agent.exited;
  clearTimeout(timer);
  return exit;
}

// Updates collects one connection's session/update notifications and lets a
// script wait for the first one that matches.
export class Updates {
  constructor() { this.all = []; this.waiters = []; }

  push(n) {
    this.all.push(n);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(n)) return true;
      w.resolve(n);
      return false;
    });
  }

  // next resolves to the first update from index `from` on that matches.
  next(match, from = 0) {
    const seen = this.all.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  kinds(from = 0) { return this.all.slice(from).map((n) => n.update.sessionUpdate); }

  // text joins the agent_message_chunk texts from index `from` on.
  text(from = 0, kind = 'agent_message_chunk') {
    return this.all.slice(from).filter((n) => n.update.sessionUpdate === kind && n.update.content.type === 'text')
      .map((n) => n.update.content.text).join('');
  }
}

// readConfig reads the JSON the Go test wrote to the file named by argv[2].
export const readConfig = () => JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// run runs main, prints its summary ({ok, failures, violations, ...}) as one
// JSON line on stdout and exits 0 when ok, 1 on failed checks or violations,
// 2 when main threw and 3 when it did not end within timeoutMs.
export function run(main, timeoutMs) {
  const out = (summary, code) => { process.stdout.write(JSON.stringify(summary) + '\n'); process.exit(code); };
  const watchdog = setTimeout(() => out({ ok: false, failures: [...failures, 'watchdog: no end within the time limit'], violations }, 3), timeoutMs || 30000);
  main().then((summary) => {
    clearTimeout(watchdog);
    const ok = failures.length === 0 && violations.length === 0;
    out({ ...summary, ok, failures, violations }, ok ? 0 : 1);
  }, (err) => {
    clearTimeout(watchdog);
    out({ ok: false, failures: [...failures, `threw: ${err && err.stack ? err.stack : err}`], violations }, 2);
  });
}
