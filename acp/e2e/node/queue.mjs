// Queue and steer through @agentclientprotocol/sdk: while a command waits
// for its permission answer, the client sends a steer message
// (session/prompt with _meta["agent-lsp"].delivery "steer") and a second
// session/prompt, which the agent queues; only then is the command
// allowed. Then two more prompts are cancelled with a prompt queued behind
// each: session/cancel keeps the queue, session/cancel with
// _meta["agent-lsp"].dropQueue removes it. The Go test checks the model's
// recorded requests.
import { acp, check, failures, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { editorClient } from './editor.mjs';

const { methods } = acp;
const config = readConfig();
const ours = (delivery) => ({ _meta: { 'agent-lsp': { delivery } } });
const text = (t) => [{ type: 'text', text: t }];

run(async () => {
  const updates = new Updates();
  const out = {};
  // queueShown waits for the agent_thought_chunk line listing the queue.
  const queueShown = (line) => updates.next((n) => n.update.sessionUpdate === 'agent_thought_chunk' &&
    n.update.content.text.includes(line));
  let ctx;
  let sessionId;
  const held = {};
  const permissions = {
    requests: [],
    async answer(p) {
      this.requests.push(p);
      const id = p.toolCall.toolCallId;
      if (id === 'call_a') {
        // The command waits while the client steers and queues.
        out.steer = ctx.request(methods.agent.session.prompt, { sessionId, prompt: text(config.steer), ...ours('steer') });
        await queueShown(`[queue: q1 steer "${config.steer}"]`);
        out.queued = ctx.request(methods.agent.session.prompt, { sessionId, prompt: text(config.queued) });
        await queueShown(`[queue: q1 steer "${config.steer}"; q2 queue "${config.queued}"]`);
        return { outcome: { outcome: 'selected', optionId: p.options.find((o) => o.kind === 'allow_once').optionId } };
      }
      // The commands of the prompts to be cancelled wait for the cancel.
      return new Promise((resolve) => { held[id] = resolve; askedResolve[id](); });
    },
  };
  // asked[id] resolves when the permission of call id is being asked.
  const askedResolve = {};
  const askedPromises = Object.fromEntries(['call_c', 'call_e'].map((id) => [id, new Promise((r) => { askedResolve[id] = r; })]));
  const asked = (id) => askedPromises[id];
  const agent = startAgent(config.command, config.root, []);
  await editorClient({ updates, permissions }).connectWith(agent.stream, async (c) => {
    ctx = c;
    await ctx.request(methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {},
      clientInfo: { name: 'agent-lsp-acp-e2e', version: '1.0.0' } });
    ({ sessionId } = await ctx.request(methods.agent.session.new, { cwd: config.root, mcpServers: [] }));

    const from = updates.all.length;
    const first = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: text('Run it.') });
    const steer = await out.steer;
    const queued = await out.queued;
    out.first = { stopReason: first.stopReason };
    out.steerAnswer = steer;
    out.queuedAnswer = queued;
    const kinds = updates.all.slice(from).map((n) => n.update.sessionUpdate +
      (n.update.sessionUpdate === 'tool_call_update' ? `:${n.update.status}` : ''))
      .filter((k) => ['tool_call_update:completed', 'user_message_chunk', 'agent_message_chunk'].includes(k));
    out.kinds = kinds;
    out.userChunks = updates.all.slice(from).filter((n) => n.update.sessionUpdate === 'user_message_chunk')
      .map((n) => n.update.content.text);

    // session/cancel: the queued prompt runs next.
    const keep = ctx.request(methods.agent.session.prompt, { sessionId, prompt: text('Cancel me.') });
    await asked('call_c');
    const kept = ctx.request(methods.agent.session.prompt, { sessionId, prompt: text('Keep me.') });
    await queueShown('[queue: q3 queue "Keep me."]');
    await ctx.notify(methods.agent.session.cancel, { sessionId });
    held.call_c({ outcome: { outcome: 'cancelled' } });
    out.keep = await keep;
    out.kept = await kept;

    // session/cancel with dropQueue: the queued prompt is removed.
    const drop = ctx.request(methods.agent.session.prompt, { sessionId, prompt: text('Cancel me too.') });
    await asked('call_e');
    const dropped = ctx.request(methods.agent.session.prompt, { sessionId, prompt: text('Drop me.') });
    await queueShown('[queue: q4 queue "Drop me."]');
    await ctx.notify(methods.agent.session.cancel, { sessionId, _meta: { 'agent-lsp': { dropQueue: true } } });
    held.call_e({ outcome: { outcome: 'cancelled' } });
    out.drop = await drop;
    out.dropped = await dropped;
  });
  out.exit = await stopAgent(agent);

  check(out.first.stopReason === 'end_turn', `first ${JSON.stringify(out.first)}`);
  check(out.steerAnswer.stopReason === 'end_turn' && out.steerAnswer._meta?.['agent-lsp']?.stopReason === 'steered',
    `steer answer ${JSON.stringify(out.steerAnswer)}`);
  check(out.queuedAnswer.stopReason === 'end_turn' && !out.queuedAnswer._meta, `queued answer ${JSON.stringify(out.queuedAnswer)}`);
  check(out.kinds.slice(0, 3).join(',') === 'tool_call_update:completed,user_message_chunk,agent_message_chunk',
    `the first prompt's updates ${out.kinds}`);
  check(out.userChunks[0] === config.steer, `user_message_chunk ${JSON.stringify(out.userChunks)}`);
  check(out.keep.stopReason === 'cancelled', `cancelled ${JSON.stringify(out.keep)}`);
  check(out.kept.stopReason === 'end_turn', `kept ${JSON.stringify(out.kept)}`);
  check(out.drop.stopReason === 'cancelled', `cancelled too ${JSON.stringify(out.drop)}`);
  check(out.dropped.stopReason === 'cancelled' && out.dropped._meta?.['agent-lsp']?.notice === 'removed from the queue',
    `dropped ${JSON.stringify(out.dropped)}`);
  check(out.exit.code === 0, `agent exit ${JSON.stringify(out.exit)}`);
  return { failuresSoFar: failures.length };
}, config.timeoutMs);
