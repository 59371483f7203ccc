// Commands in the client's terminal, as a user's editor runs them: the
// client declares only `terminal`, its terminals carry the user's shell
// environment (config.terminalEnv: credentials included) and, with
// config.terminalOnly, can run only that program. One prompt runs the
// model's commands (config.prompts.work); with config.prompts.slow, a slow
// command is then cancelled while it runs.
import fs from 'node:fs';
import { acp, check, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { editorClient, Permissions, Terminals } from './editor.mjs';

const { methods } = acp;
const config = readConfig();

const call = (ctx, method, params) => ctx.request(method, params).catch((e) => {
  throw new Error(`${method} failed: ${e.code ?? ''} ${e.message} ${JSON.stringify(e.data ?? null)}`);
});

// processesRunning lists the processes whose command line holds marker.
function processesRunning(marker) {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^[0-9]+$/.test(d))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(marker) && Number(pid) !== process.pid) found.push(`${pid}: ${cmdline}`);
    } catch { /* gone */ }
  }
  return found;
}

// gone waits up to ms for every process holding marker to end, polling
// /proc; it returns those still there.
async function gone(marker, ms) {
  const end = performance.now() + ms;
  let left = processesRunning(marker);
  while (left.length > 0 && performance.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    left = processesRunning(marker);
  }
  return left;
}

run(async () => {
  const updates = new Updates();
  const terminals = new Terminals({ env: config.terminalEnv ?? {}, only: config.terminalOnly ?? null });
  const permissions = new Permissions('allow_once');
  const agent = startAgent(config.command, config.root, []);
  const out = {};
  try {
    await editorClient({ updates, terminals, permissions }).connectWith(agent.stream, async (ctx) => {
      await call(ctx, methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { terminal: true },
        clientInfo: { name: 'agent-lsp-acp-e2e-terminal', version: '1.0.0' },
      });
      const { sessionId } = await call(ctx, methods.agent.session.new, { cwd: config.root, mcpServers: [] });
      const work = await call(ctx, methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: config.prompts.work }] });
      check(work.stopReason === 'end_turn', `work prompt: stopReason ${work.stopReason}`);
      if (config.prompts.slow) {
        const started = new Promise((resolve) => { terminals.onCreate = resolve; });
        const slow = call(ctx, methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: config.prompts.slow }] });
        await Promise.race([started, slow.then((r) => { throw new Error(`slow prompt ended (${r.stopReason}) before its command started`); })]);
        // The command runs once the stub has it: the tool call then shows
        // the terminal; cancel, and once the prompt answers, nothing of the
        // command may be left. A SIGKILLed process takes a moment to exit
        // (a zombie has no command line): /proc, outside this process, is
        // polled for a bounded time.
        await Promise.race([
          updates.next((n) => n.update.toolCallId === config.slowCallId && (n.update.content ?? []).some((c) => c.type === 'terminal')),
          slow.then((r) => { throw new Error(`slow prompt ended (${r.stopReason}) without showing its terminal`); })]);
        out.environs = terminals.environs();
        await ctx.notify(methods.agent.session.cancel, { sessionId });
        const stopped = await slow;
        out.slowStopReason = stopped.stopReason;
        out.survivors = await gone(config.slowMarker, 5000);
      }
    });
  } finally {
    terminals.killAll();
  }
  out.exit = await stopAgent(agent);
  out.terminalsCreated = terminals.created;
  out.shown = Object.fromEntries(terminals.shown);
  out.exits = terminals.exits();
  out.permissionTitles = permissions.requests.map((p) => p.toolCall.title ?? '');
  out.toolTitles = updates.all.filter((n) => n.update.sessionUpdate === 'tool_call').map((n) => n.update.title);
  check(terminals.live().length === 0, `terminals never released: ${terminals.live()}`);
  return out;
}, config.timeoutMs);
