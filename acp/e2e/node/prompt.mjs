// One prompt through @agentclientprotocol/sdk, for the tests that only need
// the ACP front end to run a scripted model's tool calls to their end (the
// sandbox's everyday commands and attacks, cmd/agent-lsp): initialize,
// session/new in config.root, the prompt, every permission request allowed
// once (or answered with config.answer's kind), stdin closed; the agent's
// exit is waited for.
//
// config: {command: [argv...], root, prompt, terminal: bool, answer, timeoutMs}.
// terminal true: the client declares and serves terminal/* (commands then
// run in the client's terminals, as in Zed).
import { acp, check, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { editorClient, Permissions, Terminals } from './editor.mjs';

const { methods } = acp;
const config = readConfig();

async function main() {
  const updates = new Updates();
  const terminals = config.terminal ? new Terminals() : null;
  const permissions = new Permissions(config.answer ?? 'allow_once');
  const agent = startAgent(config.command, config.root, []);
  const out = {};
  try {
    await editorClient({ updates, terminals, permissions }).connectWith(agent.stream, async (ctx) => {
      await ctx.request(methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: config.terminal ? { terminal: true } : {},
        clientInfo: { name: 'agent-lsp-acp-prompt', version: '1.0.0' },
      });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: config.root, mcpServers: [] });
      const res = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: config.prompt }] });
      out.stopReason = res.stopReason;
      check(res.stopReason === 'end_turn', `prompt: stopReason ${res.stopReason}`);
    });
  } finally {
    terminals?.killAll();
  }
  out.exit = await stopAgent(agent);
  check(out.exit.code === 0, `agent exit ${JSON.stringify(out.exit)}`);
  out.permissionRequests = permissions.requests.length;
  out.permissionTitles = permissions.requests.map((p) => p.toolCall.title ?? '');
  out.terminalsCreated = terminals?.created ?? [];
  return out;
}

run(main, config.timeoutMs);
