// One ACP session driven end to end through @agentclientprotocol/sdk, the
// way an editor drives an agent: initialize, session/new with an MCP server,
// a prompt that reads, edits (after a permission prompt), runs a command and
// calls the MCP tool, a long answer cancelled mid-stream, a slow command
// cancelled while it runs, the mode switched
// through session/set_config_option, a last prompt, the model switched the
// same way; then a fresh
// agent process loads the session and replays it.
//
// config.caps true: the client declares fs + terminal and serves them
// (unsaved buffers, spawned terminals); false: it declares nothing and any
// fs/terminal request from the agent is a violation.
import { acp, check, failures, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { Buffers, editorClient, Permissions, Terminals } from './editor.mjs';

const { methods } = acp;
const config = readConfig();

const capabilities = config.caps
  ? { fs: { readTextFile: true, writeTextFile: true }, terminal: true }
  : {};

// call sends a request; a failure names the method and the agent's error.
const call = (ctx, method, params) => ctx.request(method, params).catch((e) => {
  throw new Error(`${method} failed: ${e.code ?? ''} ${e.message} ${JSON.stringify(e.data ?? null)}`);
});

// toolCalls folds tool_call and tool_call_update notifications into one
// record per call: its last fields plus the statuses it went through.
function toolCalls(updates) {
  const byId = new Map();
  for (const { update: u } of updates) {
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') continue;
    const rec = byId.get(u.toolCallId) ?? { toolCallId: u.toolCallId, statuses: [], content: [], updates: 0 };
    if (u.sessionUpdate === 'tool_call') rec.announced = (rec.announced ?? 0) + 1; else rec.updates++;
    for (const k of ['title', 'kind', 'rawInput', 'rawOutput', 'locations']) if (u[k] != null) rec[k] = u[k];
    if (u.status) rec.statuses.push(u.status);
    if (u.content) rec.content = u.content;
    byId.set(u.toolCallId, rec);
  }
  return [...byId.values()];
}

async function initialize(ctx) {
  const init = await call(ctx, methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: capabilities,
    clientInfo: { name: 'agent-lsp-acp-e2e', version: '1.0.0' },
  });
  check(init.protocolVersion === 1, `initialize: protocolVersion ${init.protocolVersion}, want 1`);
  check(init.agentCapabilities?.loadSession === true, `initialize: loadSession ${JSON.stringify(init.agentCapabilities)}`);
  return init;
}

// switchOption sets the option of category (mode/model) to a value other
// than its current one and checks the answer carries it.
async function switchOption(ctx, sessionId, options, category) {
  const opt = (options ?? []).find((o) => o.category === category || o.id === category);
  if (!check(opt && opt.type === 'select', `no select config option of category ${category}: ${JSON.stringify(options)}`)) return null;
  const values = opt.options.flatMap((o) => ('options' in o ? o.options : [o])).map((o) => o.value);
  // What the schema cannot say: the current value is one of the choices.
  check(values.includes(opt.currentValue), `config option ${opt.id}: currentValue ${opt.currentValue} is not among ${JSON.stringify(values)}`);
  const want = config.switchTo?.[category] ?? values.find((v) => v !== opt.currentValue);
  if (!check(want !== undefined && values.includes(want), `config option ${opt.id}: no value to switch to in ${JSON.stringify(values)}`)) return null;
  const res = await call(ctx, methods.agent.session.setConfigOption, { sessionId, configId: opt.id, value: want });
  const after = res.configOptions.find((o) => o.id === opt.id);
  check(after?.currentValue === want, `set_config_option ${opt.id}=${want}: answered ${JSON.stringify(after)}`);
  return { id: opt.id, from: opt.currentValue, to: want, options: res.configOptions };
}

// firstSession runs everything up to the replay in the first agent process.
async function firstSession(log) {
  const updates = new Updates();
  const buffers = config.caps ? new Buffers(config.root, config.buffers ?? {}) : null;
  const terminals = config.caps ? new Terminals() : null;
  const permissions = new Permissions('allow_once');
  const agent = startAgent(config.command, config.root, log);
  const out = {};
  try {
    await editorClient({ updates, buffers, terminals, permissions }).connectWith(agent.stream, async (ctx) => {
      out.init = await initialize(ctx);
      const created = await call(ctx, methods.agent.session.new, { cwd: config.root, mcpServers: [config.mcpServer] });
      out.sessionId = created.sessionId;
      out.configOptions = created.configOptions ?? null;
      out.modes = created.modes ?? null;

      // The working prompt: read, edit, run, MCP, answer.
      let from = updates.all.length;
      const work = await call(ctx, methods.agent.session.prompt, { sessionId: out.sessionId, prompt: [{ type: 'text', text: config.prompts.work }] });
      out.work = { stopReason: work.stopReason, text: updates.text(from), kinds: updates.kinds(from), toolCalls: toolCalls(updates.all.slice(from)) };
      check(work.stopReason === 'end_turn', `work prompt: stopReason ${work.stopReason}`);
      check(out.work.text === config.expect.answer, `work prompt: text ${JSON.stringify(out.work.text)}`);

      // The long answer, cancelled once it streams.
      from = updates.all.length;
      const long = call(ctx, methods.agent.session.prompt, { sessionId: out.sessionId, prompt: [{ type: 'text', text: config.prompts.long }] });
      await Promise.race([updates.next((n) => n.update.sessionUpdate === 'agent_message_chunk', from),
        long.then((r) => { throw new Error(`long prompt ended (${r.stopReason}) before it streamed`); })]);
      const tc = performance.now();
      await ctx.notify(methods.agent.session.cancel, { sessionId: out.sessionId });
      const cancelled = await long;
      out.cancel = { stopReason: cancelled.stopReason, ms: performance.now() - tc, text: updates.text(from) };
      check(cancelled.stopReason === 'cancelled', `cancelled prompt: stopReason ${cancelled.stopReason}`);
      check(out.cancel.ms <= config.expect.cancelWithinMs, `cancel took ${out.cancel.ms.toFixed(1)} ms (limit ${config.expect.cancelWithinMs})`);

      // A slow command, cancelled while it runs: the agent kills it (in
      // the client's terminal when it has one) and answers cancelled.
      from = updates.all.length;
      const started = terminals
        ? new Promise((resolve) => { terminals.onCreate = resolve; })
        : updates.next((n) => n.update.toolCallId === 'call_slow' && n.update.status === 'in_progress', from);
      const slow = call(ctx, methods.agent.session.prompt, { sessionId: out.sessionId, prompt: [{ type: 'text', text: config.prompts.slow }] });
      await Promise.race([started, slow.then((r) => { throw new Error(`slow prompt ended (${r.stopReason}) before its command started`); })]);
      const ts = performance.now();
      await ctx.notify(methods.agent.session.cancel, { sessionId: out.sessionId });
      const stopped = await slow;
      out.slow = { stopReason: stopped.stopReason, ms: performance.now() - ts, toolCalls: toolCalls(updates.all.slice(from)) };
      check(stopped.stopReason === 'cancelled', `cancelled command: stopReason ${stopped.stopReason}`);
      check(out.slow.ms <= config.expect.cancelWithinMs, `cancelling the command took ${out.slow.ms.toFixed(1)} ms (limit ${config.expect.cancelWithinMs})`);

      // The mode applies to the next prompt; the model is switched last, as
      // its presets point at real providers the fake does not stand in for.
      out.mode = await switchOption(ctx, out.sessionId, out.configOptions, 'mode');
      from = updates.all.length;
      const after = await call(ctx, methods.agent.session.prompt, { sessionId: out.sessionId, prompt: [{ type: 'text', text: config.prompts.after }] });
      out.after = { stopReason: after.stopReason, text: updates.text(from), kinds: updates.kinds(from) };
      check(after.stopReason === 'end_turn', `after prompt: stopReason ${after.stopReason}`);
      out.model = await switchOption(ctx, out.sessionId, out.mode?.options ?? out.configOptions, 'model');
      out.allKinds = [...new Set(updates.kinds())];
    });
  } finally {
    terminals?.killAll();
  }
  out.exit = await stopAgent(agent);
  out.permissionRequests = permissions.requests;
  if (buffers) {
    out.reads = buffers.reads;
    out.writes = buffers.writes;
    out.buffers = Object.fromEntries(buffers.map);
  }
  if (terminals) {
    out.terminalsCreated = terminals.created;
    out.terminalCalls = terminals.calls.map((c) => c.method);
    out.terminalExits = terminals.exits();
    check(terminals.live().length === 0, `terminals never released: ${terminals.live()}`);
  }
  return out;
}

// replay loads the session in a fresh agent process; what it replays are
// the session/update messages between our session/load and its answer, in
// wire order (the tap's log).
async function replay(sessionId) {
  const log = [];
  const updates = new Updates();
  const agent = startAgent(config.command, config.root, log);
  const out = {};
  await editorClient({ updates, permissions: new Permissions('reject_once') }).connectWith(agent.stream, async (ctx) => {
    await initialize(ctx);
    out.result = await call(ctx, methods.agent.session.load, { sessionId, cwd: config.root, mcpServers: [config.mcpServer] });
  });
  out.exit = await stopAgent(agent);
  const start = log.findIndex((e) => e.dir === 'out' && e.msg.method === 'session/load');
  const end = log.findIndex((e, i) => i > start && e.dir === 'in' && e.msg.id === log[start].msg.id && !('method' in e.msg));
  const replayed = log.slice(start, end).filter((e) => e.dir === 'in' && e.msg.method === 'session/update').map((e) => e.msg.params);
  const late = log.slice(end).filter((e) => e.dir === 'in' && e.msg.method === 'session/update' &&
    ['user_message_chunk', 'agent_message_chunk', 'tool_call'].includes(e.msg.params.update.sessionUpdate));
  check(late.length === 0, `${late.length} conversation updates arrived after the session/load answer`);
  const r = new Updates();
  for (const n of replayed) r.push(n);
  out.kinds = r.kinds();
  out.userText = r.text(0, 'user_message_chunk');
  out.agentText = r.text(0, 'agent_message_chunk');
  out.toolCalls = toolCalls(replayed).map((c) => c.toolCallId);
  out.wrongSession = replayed.filter((n) => n.sessionId !== sessionId).length;
  return out;
}

run(async () => {
  const first = await firstSession([]);
  check(first.exit.code === 0, `first agent exit ${JSON.stringify(first.exit)}`);
  if (failures.length > 0 || !first.sessionId) return { first };
  const load = await replay(first.sessionId);
  check(load.exit.code === 0, `second agent exit ${JSON.stringify(load.exit)}`);
  check(load.wrongSession === 0, `replay carries ${load.wrongSession} updates of another session`);
  // The replay shows what the user typed, no more (a client renders it as
  // the user's messages): every prompt, the cancelled ones included.
  const typed = config.prompts.work + config.prompts.long + config.prompts.slow + config.prompts.after;
  check(load.userText === typed, `replayed user text ${JSON.stringify(load.userText)}, want ${JSON.stringify(typed)}`);
  check(load.agentText.includes(config.expect.answer), `replay lacks the answer: ${JSON.stringify(load.agentText)}`);
  const want = first.work.toolCalls.map((c) => c.toolCallId);
  check(want.every((id) => load.toolCalls.includes(id)), `replay tool calls ${load.toolCalls}, want ${want}`);
  return { first, load };
}, config.timeoutMs);
