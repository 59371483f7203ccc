// The protocol test's control surface steps: commands, models, modes, the
// plan, mentions, a slash command.

import type { Update } from '../protocol';
import { completeAt } from '../logic/completion';
import { planRows } from '../logic/plan';
import type { Transcript } from '../logic/transcript';
import { check, config } from './config';
import type { Daemon } from './daemon';

/**
 * controlSurface steers the session as the extension's commands and chat
 * input do: the slash commands the input completes, the model presets of
 * "agent-lsp: Switch Model", "agent-lsp: Set Mode" plan then ask, the plan
 * updates the Plan view draws, mentions, and a slash command sent as a prompt.
 */
export async function controlSurface(d: Daemon, sessionId: string, transcript: Transcript): Promise<Record<string, unknown>> {
  const commands = await d.agent.commands();
  const names = commands.map((c) => c.name);
  check(['/compact', '/clear', '/mode', '/model'].every((n) => names.includes(n)) && commands.every((c) => c.source === 'builtin'),
    `commands ${JSON.stringify(commands)}`);
  const typed = await completeAt('/mo', 3, { commands: async () => commands, files: async () => [] });
  check(JSON.stringify(typed?.items.map((i) => i.insert)) === JSON.stringify(['/mode ', '/model ']), `"/mo" completes to ${JSON.stringify(typed)}`);

  const { models, current } = await d.agent.models(sessionId);
  const presetIds = models.map((m) => m.id);
  check(['deepseek', 'deepseek-anthropic', 'openai', 'anthropic', 'openrouter', 'ollama'].every((id) => presetIds.includes(id)), `presets ${JSON.stringify(presetIds)}`);
  check(current?.provider === 'openai' && current.model === 'deepseek-flash', `current model ${JSON.stringify(current)}`);

  const seen = (kind: string, from: number): Update[] => d.updates.slice(from).filter((u) => u.kind === kind);

  // agent-lsp: Set Mode → plan, then a prompt whose todo_write calls stream the plan.
  let from = d.updates.length;
  check(await d.agent.setMode(sessionId, 'plan') === 'plan', 'setMode plan');
  check(JSON.stringify(seen('mode', from).map((u) => u.kind === 'mode' && u.mode)) === '["plan"]', `mode updates ${JSON.stringify(seen('mode', from))}`);
  from = d.updates.length;
  transcript.addPrompt(config.planPrompt);
  const planned = await d.prompt(config.planPrompt, sessionId);
  transcript.finish(planned.result);
  check(planned.result.stopReason === 'end_turn', `plan prompt: ${planned.result.stopReason} (${planned.result.error ?? ''})`);
  const plans = seen('plan', from).map((u) => (u.kind === 'plan' ? u.items : []));
  check(JSON.stringify(plans) === JSON.stringify(config.expectPlans), `plan updates ${JSON.stringify(plans)}`);
  // Each plan update comes between its todo_write call and result.
  const order = d.updates.slice(from).filter((u) => u.kind === 'plan' || ((u.kind === 'tool_call' || u.kind === 'tool_result') && u.name === 'todo_write')).map((u) => u.kind);
  check(order.join(' ') === 'tool_call plan tool_result tool_call plan tool_result', `todo_write order ${order.join(' ')}`);
  const state = await d.agent.session(sessionId);
  check(state.mode === 'plan' && JSON.stringify(state.plan) === JSON.stringify(plans[plans.length - 1]), `agent/session ${JSON.stringify(state)}`);
  const rows = planRows(state.plan).map((r) => `${r.icon} ${r.label}`);

  // agent-lsp: Set Mode → ask, then a prompt with mentions; the model writes anyway.
  check(await d.agent.setMode(sessionId, 'ask') === 'ask', 'setMode ask');
  from = d.updates.length;
  transcript.addPrompt(config.askPrompt);
  const asked = await d.prompt(config.askPrompt, sessionId);
  transcript.finish(asked.result);
  check(asked.result.stopReason === 'end_turn', `ask prompt: ${asked.result.stopReason} (${asked.result.error ?? ''})`);
  const mentions = seen('mention', from).map((u) => (u.kind === 'mention' ? `${u.path}:${u.status}` : ''));
  check(JSON.stringify(mentions) === JSON.stringify(config.expectMentions), `mention updates ${JSON.stringify(mentions)}`);
  check(JSON.stringify((asked.result.mentions ?? []).map((m) => `${m.path}:${m.status}`)) === JSON.stringify(config.expectMentions),
    `prompt mentions ${JSON.stringify(asked.result.mentions)}`);
  const refused = seen('tool_result', from).find((u) => u.kind === 'tool_result' && u.name === 'write_file');
  check(refused?.kind === 'tool_result' && refused.status === 'denied' && refused.output.includes('not available in ask mode'), `write_file in ask mode: ${JSON.stringify(refused)}`);
  check(d.popups.length === 0 && d.approvals.length === 0 && d.applyEdits.length === 0,
    `ask mode: ${d.popups.length} popups, ${d.approvals.length} approvals, ${d.applyEdits.length} edits`);

  // A slash command typed in the chat: no model call, a mode update, the answer in the result.
  from = d.updates.length;
  transcript.addPrompt('/mode default');
  const slash = await d.prompt('/mode default', sessionId);
  transcript.finish(slash.result);
  check(slash.result.command === '/mode' && slash.result.stopReason === 'end_turn', `/mode default: ${JSON.stringify(slash.result)}`);
  check(JSON.stringify(seen('mode', from).map((u) => u.kind === 'mode' && u.mode)) === '["default"]', `/mode updates ${JSON.stringify(seen('mode', from))}`);
  check((await d.agent.session(sessionId)).mode === 'default', 'mode after /mode default');
  return { commands: names, planRows: rows, mentions };
}
