// A scripted ACP agent on the SDK's agent side, for session.test.mjs: it
// plays what session.mjs expects of agent-lsp acp (read, permission, edit,
// command, MCP call, a stream and a command that run until cancelled, config options, a
// replay on session/load) so the client is tested before and apart from the
// real agent. The conversation is kept in <cwd>/.fake-agent.json so that a
// fresh process can load it. FAKE_AGENT_BREAK=1 makes one update invalid.
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const { methods } = acp;
const store = path.join(process.cwd(), '.fake-agent.json');
const load = () => (fs.existsSync(store) ? JSON.parse(fs.readFileSync(store, 'utf8')) : {});
const save = (db) => fs.writeFileSync(store, JSON.stringify(db));

let caps = {};
const modes = ['default', 'plan'];
const models = ['fake-a', 'fake-b'];
const state = { mode: 'default', model: 'fake-a' };
const cancels = new Map();

const options = () => [
  { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: state.mode, options: modes.map((m) => ({ value: m, name: m })) },
  { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: state.model, options: models.map((m) => ({ value: m, name: m })) },
];

async function work(client, sessionId, cwd, history) {
  const send = (update) => { history.push(update); return client.notify(methods.client.session.update, { sessionId, update }); };
  const file = path.join(cwd, 'notes.txt');
  const read = caps.fs?.readTextFile ? (await client.request(methods.client.fs.readTextFile, { sessionId, path: file })).content : fs.readFileSync(file, 'utf8');
  await send({ sessionUpdate: 'tool_call', toolCallId: 'call_read', title: 'read notes.txt', kind: 'read', status: 'completed', locations: [{ path: file }] });
  const edited = read.replace('draft', 'final');
  await send({ sessionUpdate: 'tool_call', toolCallId: 'call_edit', title: 'edit notes.txt', kind: 'edit', status: 'pending', content: [{ type: 'diff', path: file, oldText: read, newText: edited }] });
  const perm = await client.request(methods.client.session.requestPermission, { sessionId, toolCall: { toolCallId: 'call_edit' },
    options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }] });
  if (perm.outcome.outcome !== 'selected' || perm.outcome.optionId !== 'allow') throw new Error('edit refused');
  if (caps.fs?.writeTextFile) await client.request(methods.client.fs.writeTextFile, { sessionId, path: file, content: edited });
  else fs.writeFileSync(file, edited);
  await send({ sessionUpdate: 'tool_call_update', toolCallId: 'call_edit', status: 'completed' });
  if (caps.terminal) {
    const { terminalId } = await client.request(methods.client.terminal.create, { sessionId, command: 'bash', args: ['-c', 'echo term-$((6*7))'], cwd });
    await send({ sessionUpdate: 'tool_call', toolCallId: 'call_bash', title: 'echo', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] });
    await client.request(methods.client.terminal.waitForExit, { sessionId, terminalId });
    await client.request(methods.client.terminal.output, { sessionId, terminalId });
    await client.request(methods.client.terminal.release, { sessionId, terminalId });
  } else {
    await send({ sessionUpdate: 'tool_call', toolCallId: 'call_bash', title: 'echo', kind: 'execute', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'term-42' } }] });
  }
  await send({ sessionUpdate: 'tool_call_update', toolCallId: 'call_bash', status: 'completed' });
  await send({ sessionUpdate: 'tool_call', toolCallId: 'call_mcp', title: 'word_count', kind: 'other', status: 'completed' });
}

const agentApp = acp.agent({ name: 'fake-agent' })
  .onRequest(methods.agent.initialize, ({ params }) => {
    caps = params.clientCapabilities ?? {};
    return { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] };
  })
  .onRequest(methods.agent.session.new, ({ params }) => {
    const db = load();
    const sessionId = `s${Object.keys(db).length + 1}`;
    db[sessionId] = { cwd: params.cwd, history: [] };
    save(db);
    return { sessionId, configOptions: options() };
  })
  .onRequest(methods.agent.session.load, async ({ params, client }) => {
    const db = load();
    for (const update of db[params.sessionId].history) await client.notify(methods.client.session.update, { sessionId: params.sessionId, update });
    return {};
  })
  .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
    state[params.configId] = params.value;
    return { configOptions: options() };
  })
  .onNotification(methods.agent.session.cancel, ({ params }) => cancels.get(params.sessionId)?.())
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const db = load();
    const s = db[params.sessionId];
    const text = params.prompt.map((b) => b.text ?? '').join('');
    const send = (update) => { s.history.push(update); return client.notify(methods.client.session.update, { sessionId: params.sessionId, update }); };
    await send({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    try {
      if (text.startsWith('Mark')) {
        await work(client, params.sessionId, s.cwd, s.history);
        if (process.env.FAKE_AGENT_BREAK) await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'tool_call_update', status: 'done' } });
        await send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: process.env.FAKE_AGENT_ANSWER } });
        return { stopReason: 'end_turn' };
      }
      if (text.startsWith('Tell')) {
        const cancelled = new Promise((resolve) => cancels.set(params.sessionId, resolve));
        await send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Once upon a time' } });
        await cancelled;
        return { stopReason: 'cancelled' };
      }
      if (text.startsWith('Wait')) {
        const cancelled = new Promise((resolve) => cancels.set(params.sessionId, resolve));
        await send({ sessionUpdate: 'tool_call', toolCallId: 'call_slow', title: 'sleep', kind: 'execute', status: 'in_progress' });
        if (caps.terminal) {
          const { terminalId } = await client.request(methods.client.terminal.create, { sessionId: params.sessionId, command: 'sleep', args: ['30'] });
          await cancelled;
          await client.request(methods.client.terminal.kill, { sessionId: params.sessionId, terminalId });
          await client.request(methods.client.terminal.release, { sessionId: params.sessionId, terminalId });
        } else {
          await cancelled;
        }
        return { stopReason: 'cancelled' };
      }
      await send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `mode ${state.mode}` } });
      return { stopReason: 'end_turn' };
    } finally {
      save(db);
    }
  });

const conn = agentApp.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
