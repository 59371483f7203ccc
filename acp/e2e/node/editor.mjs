// The editor side of ACP as a real client holds it: unsaved buffers the
// agent reads and writes through fs/*, terminals it runs commands in through
// terminal/*, and the permission prompt. Each handler records what it saw.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { acp, failures } from './lib.mjs';

const { methods, RequestError } = acp;

// Buffers are the editor's open documents, keyed by absolute path; their
// text differs from the disk until saved, which is how a test tells a read
// through the client from a read of the disk.
export class Buffers {
  constructor(root, files) {
    this.map = new Map(Object.entries(files).map(([p, text]) => [path.join(root, p), text]));
    this.reads = [];
    this.writes = [];
  }

  read({ path: p, line, limit }) {
    if (!path.isAbsolute(p)) failures.push(`fs/read_text_file path is not absolute: ${p}`);
    this.reads.push({ path: p, line: line ?? null, limit: limit ?? null });
    let text = this.map.has(p) ? this.map.get(p) : fs.readFileSync(p, 'utf8');
    if (line != null || limit != null) {
      const lines = text.split(/(?<=\n)/);
      const start = Math.max((line ?? 1) - 1, 0);
      text = lines.slice(start, limit != null ? start + limit : undefined).join('');
    }
    return { content: text };
  }

  write({ path: p, content }) {
    if (!path.isAbsolute(p)) failures.push(`fs/write_text_file path is not absolute: ${p}`);
    this.writes.push({ path: p, content });
    this.map.set(p, content);
    return {};
  }

  text(root, p) { return this.map.get(path.join(root, p)); }
}

// Terminals spawn the commands of terminal/create as the editor would (the
// command and its args, no shell of ours), keep their output within the
// byte limit and answer output, wait_for_exit, kill and release.
//
// Options: env adds variables to every terminal's environment, as a user's
// shell profile would (credentials included), on top of the client's own;
// only restricts what a terminal can run to that one program, as a
// terminal on a remote machine or in a container cannot run the agent's
// binary (anything else fails to start, exit 127).
export class Terminals {
  constructor({ env = {}, only = null } = {}) {
    this.byId = new Map(); this.created = []; this.calls = []; this.seq = 0; this.onCreate = null; this.exitOf = new Map();
    this.env = env; this.only = only; this.shown = new Map();
  }

  create(p) {
    const id = `term-${++this.seq}`;
    this.created.push({ id, command: p.command, args: p.args ?? [], cwd: p.cwd ?? null, outputByteLimit: p.outputByteLimit ?? null });
    const env = { ...process.env, ...this.env };
    for (const v of p.env ?? []) env[v.name] = v.value;
    const command = this.only && p.command !== this.only ? `/nonexistent/${path.basename(p.command)}` : p.command;
    const child = spawn(command, p.args ?? [], { cwd: p.cwd ?? undefined, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const t = { child, output: Buffer.alloc(0), truncated: false, exitStatus: null, limit: p.outputByteLimit ?? null };
    this.shown.set(id, '');
    const append = (chunk) => {
      this.shown.set(id, this.shown.get(id) + chunk.toString('utf8')); // what the user watched, whole
      t.output = Buffer.concat([t.output, chunk]);
      if (t.limit != null && t.output.length > t.limit) {
        // Keep the end, cut at a character boundary (the spec's rule).
        let cut = t.output.length - t.limit;
        while (cut < t.output.length && (t.output[cut] & 0xc0) === 0x80) cut++;
        t.output = t.output.subarray(cut);
        t.truncated = true;
      }
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    t.exited = new Promise((resolve) => {
      child.on('error', (err) => { append(Buffer.from(`${err.message}\n`)); t.exitStatus = { exitCode: 127, signal: null }; resolve(t.exitStatus); });
      child.on('close', (code, signal) => { t.exitStatus = { exitCode: code, signal: signal ?? null }; this.exitOf.set(id, t.exitStatus); resolve(t.exitStatus); });
    });
    this.byId.set(id, t);
    this.onCreate?.(id);
    return { terminalId: id };
  }

  get(method, id) {
    this.calls.push({ method, terminalId: id });
    const t = this.byId.get(id);
    if (!t) throw RequestError.resourceNotFound(id);
    return t;
  }

  output({ terminalId }) {
    const t = this.get('terminal/output', terminalId);
    const r = { output: t.output.toString('utf8'), truncated: t.truncated };
    if (t.exitStatus) r.exitStatus = t.exitStatus;
    return r;
  }

  async waitForExit({ terminalId }) { return await this.get('terminal/wait_for_exit', terminalId).exited; }

  // exits lists each terminal's exit status by id (null while running).
  exits() { return Object.fromEntries(this.created.map((c) => [c.id, this.exitOf.get(c.id) ?? null])); }

  kill({ terminalId }) {
    const t = this.get('terminal/kill', terminalId);
    if (!t.exitStatus) t.child.kill('SIGKILL');
    return {};
  }

  release({ terminalId }) {
    const t = this.get('terminal/release', terminalId);
    if (!t.exitStatus) t.child.kill('SIGKILL');
    this.byId.delete(terminalId);
    return {};
  }

  // environs reads /proc/<pid>/environ of each terminal's process still
  // running (what any process of the user could read there), or why not.
  environs() {
    return [...this.byId.values()].filter((t) => !t.exitStatus).map((t) => {
      try { return fs.readFileSync(`/proc/${t.child.pid}/environ`, 'latin1'); } catch (e) { return `unreadable: ${e.code}`; }
    });
  }

  // live lists the terminals not released (a leak at the end of a run).
  live() { return [...this.byId.keys()]; }

  killAll() { for (const t of this.byId.values()) if (!t.exitStatus) t.child.kill('SIGKILL'); }
}

// Permissions answers session/request_permission with the first option of
// the wanted kind, and records every request.
export class Permissions {
  constructor(answerKind) { this.answerKind = answerKind; this.requests = []; }

  answer(p) {
    this.requests.push(p);
    const opt = p.options.find((o) => o.kind === this.answerKind);
    if (!opt) {
      failures.push(`permission request for ${p.toolCall.toolCallId} offers no ${this.answerKind} option: ${JSON.stringify(p.options)}`);
      return { outcome: { outcome: 'cancelled' } };
    }
    return { outcome: { outcome: 'selected', optionId: opt.optionId } };
  }
}

// editorClient builds a client app that serves buffers and terminals (when
// given) and routes updates into updates.
export function editorClient({ updates, buffers, terminals, permissions }) {
  const app = acp.client({ name: 'agent-lsp-acp-e2e' })
    .onNotification(methods.client.session.update, ({ params }) => updates.push(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => permissions.answer(params));
  if (buffers) {
    app.onRequest(methods.client.fs.readTextFile, ({ params }) => buffers.read(params))
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => buffers.write(params));
  }
  if (terminals) {
    app.onRequest(methods.client.terminal.create, ({ params }) => terminals.create(params))
      .onRequest(methods.client.terminal.output, ({ params }) => terminals.output(params))
      .onRequest(methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params))
      .onRequest(methods.client.terminal.kill, ({ params }) => terminals.kill(params))
      .onRequest(methods.client.terminal.release, ({ params }) => terminals.release(params));
  }
  return app;
}
