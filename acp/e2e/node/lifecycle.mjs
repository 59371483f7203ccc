// A session's life through @agentclientprotocol/sdk, the parts issue 30
// names: an image in a prompt, the model picker's round trip (a preset,
// then back to the model the agent started with), session/fork and
// session/delete. The Go test checks the model's recorded requests.
import { acp, check, failures, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { editorClient } from './editor.mjs';

const { methods } = acp;
const config = readConfig();
const text = (t) => ({ type: 'text', text: t });

// modelOption is the model select's values and its current one.
const modelOption = (opts) => {
  const o = (opts ?? []).find((c) => c.id === 'model');
  return { values: (o?.options ?? []).map((v) => v.value), current: o?.currentValue };
};

run(async () => {
  const updates = new Updates();
  const out = {};
  const agent = startAgent(config.command, config.root, []);
  await editorClient({ updates }).connectWith(agent.stream, async (ctx) => {
    const init = await ctx.request(methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {},
      clientInfo: { name: 'agent-lsp-acp-e2e', version: '1.0.0' } });
    out.caps = init.agentCapabilities;
    const ns = await ctx.request(methods.agent.session.new, { cwd: config.root, mcpServers: [] });
    out.started = modelOption(ns.configOptions);

    // An image, as a client pastes one.
    out.image = await ctx.request(methods.agent.session.prompt, { sessionId: ns.sessionId,
      prompt: [text('What is in this picture?'), { type: 'image', mimeType: 'image/png', data: config.png }] });

    // The picker: to a preset, then back to the started-with model.
    const toPreset = await ctx.request(methods.agent.session.setConfigOption,
      { sessionId: ns.sessionId, configId: 'model', value: config.preset });
    out.onPreset = modelOption(toPreset.configOptions);
    const back = await ctx.request(methods.agent.session.setConfigOption,
      { sessionId: ns.sessionId, configId: 'model', value: 'configured' });
    out.back = modelOption(back.configOptions);
    out.afterBack = await ctx.request(methods.agent.session.prompt, { sessionId: ns.sessionId, prompt: [text('Still there?')] });

    // Fork, prompt the fork; then delete the fork.
    const fork = await ctx.request('session/fork', { sessionId: ns.sessionId, cwd: config.root, mcpServers: [] });
    out.forkId = fork.sessionId;
    out.inFork = await ctx.request(methods.agent.session.prompt, { sessionId: fork.sessionId, prompt: [text('FORK-ONLY')] });
    out.deleted = await ctx.request(methods.agent.session.delete, { sessionId: fork.sessionId });
    const list = await ctx.request(methods.agent.session.list, { cwd: config.root });
    out.listed = list.sessions.map((s) => s.sessionId);
    out.sessionId = ns.sessionId;
  });
  out.exit = await stopAgent(agent);

  check(out.caps.promptCapabilities?.image === true, `promptCapabilities ${JSON.stringify(out.caps.promptCapabilities)}`);
  check(out.caps.sessionCapabilities?.fork && out.caps.sessionCapabilities?.delete,
    `sessionCapabilities ${JSON.stringify(out.caps.sessionCapabilities)}`);
  check(out.started.current === 'configured' && out.started.values.includes(config.preset), `new session's models ${JSON.stringify(out.started)}`);
  check(out.image.stopReason === 'end_turn', `image prompt ${JSON.stringify(out.image)}`);
  check(out.onPreset.current === config.preset && out.onPreset.values.includes('configured'),
    `after the switch ${JSON.stringify(out.onPreset)}: the started-with model must stay`);
  check(out.back.current === 'configured', `back ${JSON.stringify(out.back)}`);
  check(out.afterBack.stopReason === 'end_turn', `after back ${JSON.stringify(out.afterBack)}`);
  check(out.forkId && out.forkId !== out.sessionId && out.inFork.stopReason === 'end_turn', `fork ${JSON.stringify(out)}`);
  check(out.listed.includes(out.sessionId) && !out.listed.includes(out.forkId), `listed after the delete ${JSON.stringify(out.listed)}`);
  check(out.exit.code === 0, `agent exit ${JSON.stringify(out.exit)}`);
  return { failuresSoFar: failures.length };
}, config.timeoutMs);
