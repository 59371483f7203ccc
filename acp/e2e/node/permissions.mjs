// Persistent permission rules through @agentclientprotocol/sdk: in a first
// agent process, "Always allow for me" (an option of kind allow_always,
// rawInput.rule naming the rule) on `go test ./...`; a second agent
// process runs the same command without a permission request, still asks
// about a compound HIGH command that starts with it (with no "always"
// option), lists the rule with /permissions, removes it, and is asked
// again.
import { acp, check, failures, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { editorClient } from './editor.mjs';

const { methods } = acp;
const config = readConfig();

// Answers hands out optionIds in order (reject_once once they run out)
// and records each request.
class Answers {
  constructor(ids) { this.ids = ids; this.requests = []; }

  answer(p) {
    this.requests.push(p);
    const id = this.ids.shift() ?? 'reject_once';
    if (!p.options.some((o) => o.optionId === id)) {
      failures.push(`permission request for ${p.toolCall.toolCallId} offers no ${id}: ${JSON.stringify(p.options)}`);
      return { outcome: { outcome: 'cancelled' } };
    }
    return { outcome: { outcome: 'selected', optionId: id } };
  }
}

const call = (ctx, method, params) => ctx.request(method, params).catch((e) => {
  throw new Error(`${method} failed: ${e.code ?? ''} ${e.message} ${JSON.stringify(e.data ?? null)}`);
});

async function session(answers, steps) {
  const updates = new Updates();
  const agent = startAgent(config.command, config.root, []);
  const out = [];
  await editorClient({ updates, permissions: answers }).connectWith(agent.stream, async (ctx) => {
    await call(ctx, methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {},
      clientInfo: { name: 'agent-lsp-acp-e2e', version: '1.0.0' } });
    const { sessionId } = await call(ctx, methods.agent.session.new, { cwd: config.root, mcpServers: [] });
    for (const step of steps) {
      const text = typeof step === 'function' ? step(out) : step;
      const from = updates.all.length;
      const asked = answers.requests.length;
      const r = await call(ctx, methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
      out.push({ prompt: text, stopReason: r.stopReason, text: updates.text(from), asked: answers.requests.length - asked });
    }
  });
  const exit = await stopAgent(agent);
  check(exit.code === 0, `agent exit ${JSON.stringify(exit)}`);
  return out;
}

async function main() {
  const first = new Answers(['allow_always_user']);
  const one = await session(first, [config.prompts.test]);
  const req = first.requests[0];
  const always = (req?.options ?? []).filter((o) => o.kind === 'allow_always').map((o) => o.optionId);
  check(JSON.stringify(always) === JSON.stringify(['allow_always', 'allow_always_workspace', 'allow_always_user']),
    `allow_always options ${JSON.stringify(req?.options)}`);
  check(req?.toolCall?.rawInput?.rule === 'run_bash: go test ./...', `rawInput ${JSON.stringify(req?.toolCall?.rawInput)}`);

  const second = new Answers(['reject_once', 'reject_once']);
  const two = await session(second, [
    config.prompts.test,
    config.prompts.compound,
    '/permissions',
    (out) => `/permissions remove ${(out[2].text.match(/^(u-[0-9a-f]+)\s+allow/m) ?? [])[1] ?? 'none'}`,
    config.prompts.test,
  ]);
  const high = second.requests[0];
  check(!(high?.options ?? []).some((o) => o.kind === 'allow_always'), `HIGH offered allow_always: ${JSON.stringify(high?.options)}`);
  return { one, two, compound: high?.toolCall?.rawInput?.command ?? null };
}

run(main, config.timeoutMs);
