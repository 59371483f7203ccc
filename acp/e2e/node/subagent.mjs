// Subagents through @agentclientprotocol/sdk (issue 28): three prompts in
// one session. "parallel": three task calls whose children answer; each
// task call is a tool call titled by its description, the children's
// progress is its content, and its result is the child's summary.
// "edit": a child given write_file asks through session/request_permission
// about a tool call the client saw, marked in _meta with its task call.
// "cancel": three children run (the fake model holds their requests),
// session/cancel ends the prompt; the time from the cancel to the prompt's
// answer is measured.
//
// config: {command: [argv...], root, prompts: {parallel, edit, cancel},
// readyFile, timeoutMs}.
import fs from 'node:fs';
import path from 'node:path';
import { acp, check, readConfig, run, startAgent, stopAgent, Updates } from './lib.mjs';
import { editorClient, Permissions } from './editor.mjs';

const { methods } = acp;
const config = readConfig();
const metaKey = 'agent-lsp/parentToolCallId';

// calls folds the tool_call and tool_call_update notifications from index
// `from` on into one record per tool call id.
function calls(updates, from) {
  const byId = new Map();
  for (const n of updates.all.slice(from)) {
    const u = n.update;
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') continue;
    const c = byId.get(u.toolCallId) ?? { toolCallId: u.toolCallId, statuses: [], contents: [], parent: null };
    if (u.title) c.title = u.title;
    if (u.status) c.statuses.push(u.status);
    if (u.content) c.contents.push(u.content.map((b) => (b.type === 'content' && b.content.type === 'text' ? b.content.text : b.type)).join('|'));
    if (u._meta && u._meta[metaKey]) c.parent = u._meta[metaKey];
    byId.set(u.toolCallId, c);
  }
  return [...byId.values()];
}

// fileExists resolves once file exists (a change of its directory tells).
function fileExists(file) {
  return new Promise((resolve) => {
    const watcher = fs.watch(path.dirname(file), () => {
      if (fs.existsSync(file)) { watcher.close(); resolve(); }
    });
    if (fs.existsSync(file)) { watcher.close(); resolve(); }
  });
}

async function main() {
  const updates = new Updates();
  const permissions = new Permissions('allow_once');
  const agent = startAgent(config.command, config.root, []);
  const out = {};
  await editorClient({ updates, permissions }).connectWith(agent.stream, async (ctx) => {
    await ctx.request(methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {},
      clientInfo: { name: 'agent-lsp-acp-subagent', version: '1.0.0' },
    });
    const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: config.root, mcpServers: [] });
    const prompt = (text) => ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

    const stage = (s) => process.stderr.write(`subagent.mjs: ${s}\n`);
    let from = updates.all.length;
    stage('parallel');
    let res = await prompt(config.prompts.parallel);
    check(res.stopReason === 'end_turn', `parallel: stopReason ${res.stopReason}`);
    out.parallel = calls(updates, from);

    from = updates.all.length;
    stage('edit');
    res = await prompt(config.prompts.edit);
    check(res.stopReason === 'end_turn', `edit: stopReason ${res.stopReason}`);
    out.edit = calls(updates, from);
    out.permissions = permissions.requests.map((p) => ({ toolCallId: p.toolCall.toolCallId, title: p.toolCall.title ?? '',
      parent: p.toolCall._meta?.[metaKey] ?? null }));

    from = updates.all.length;
    stage('cancel');
    const answered = prompt(config.prompts.cancel);
    // The Go test writes readyFile once the fake model holds the three
    // children's requests at once (they never answer): all three run.
    await fileExists(config.readyFile);
    stage('children running');
    const start = performance.now();
    await ctx.notify(methods.agent.session.cancel, { sessionId });
    res = await answered;
    out.cancel = { stopReason: res.stopReason, ms: performance.now() - start };
    check(res.stopReason === 'cancelled', `cancel: stopReason ${res.stopReason}`);
    out.cancelCalls = calls(updates, from);
  });
  out.exit = await stopAgent(agent);
  check(out.exit.code === 0, `agent exit ${JSON.stringify(out.exit)}`);
  return out;
}

run(main, config.timeoutMs);
