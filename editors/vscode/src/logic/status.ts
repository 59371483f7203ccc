// The status bar item's text: what the agent is doing and what the session
// has cost so far.

import type { CurrentModel, Mode, Spend, Totals } from '../protocol';
import { completionView, type CompletionStatus } from './inline';
import { capText, spendLines } from './spendStatus';

/** formatTokens: 950 → "950", 12_345 → "12.3k", 1_234_567 → "1.23M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1).replace(/\.?0+$/, '')}k`;
  return `${(n / 1_000_000).toFixed(2).replace(/\.?0+$/, '')}M`;
}

/** formatCost: US dollars with enough digits to see a cheap model's calls. */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return 'cost unknown'; // a model without a price
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

export interface StatusState {
  /** The progress message while a prompt runs ("Thinking", "Running edit_file", …); undefined when idle. */
  progress?: string;
  totals?: Totals;
  /** The daemon is not running (crashed, restarting, not started). */
  down?: string;
  /** The session's mode and model, once known (agent/session, mode and model updates). */
  mode?: Mode;
  model?: CurrentModel;
  /** How many messages wait in the session's queue (queued prompts, steer messages not delivered). */
  queued?: number;
  /** The last agent/completionStatus (inline completion), if any. */
  completion?: CompletionStatus;
  /** The last spend against the caps (round_end, compacted), when a cap is set. */
  spend?: Spend;
}

export interface StatusView {
  text: string;
  tooltip: string;
}

export function statusView(s: StatusState): StatusView {
  const usage = s.totals
    ? `${formatTokens(s.totals.promptTokens + s.totals.completionTokens)} tok · ${formatCost(s.totals.cost)}${capText(s.spend)}`
    : '';
  const lines = [
    s.totals
      ? `Session: ${s.totals.promptTokens} prompt tokens (${s.totals.cachedTokens} cached), ` +
        `${s.totals.completionTokens} completion tokens, ` +
        (s.totals.cost === undefined ? 'cost unknown' : `${formatCost(s.totals.cost)} estimated`)
      : 'agent-lsp: no model call in this session yet',
  ];
  lines.push(...spendLines(s.spend));
  if (s.mode) lines.push(`Mode: ${s.mode} ("agent-lsp: Set Mode")`);
  if (s.model) lines.push(`Model: ${s.model.model} (${s.model.provider}) ("agent-lsp: Switch Model")`);
  const ghost = completionView(s.completion);
  if (ghost.tooltip) lines.push(ghost.tooltip);
  if (s.queued) lines.push(`${s.queued} message${s.queued === 1 ? '' : 's'} waiting in the queue`);
  const tooltip = lines.join('\n');
  const agent = s.mode ? `agent [${s.mode}]` : 'agent';
  const queued = s.queued ? ` · ${s.queued} queued` : '';
  const tail = (ghost.text ? ` · ${ghost.text}` : '') + queued;
  if (s.down) return { text: `$(warning) agent: ${s.down}`, tooltip };
  if (s.progress) return { text: `$(sync~spin) ${agent}: ${s.progress}${usage ? ' · ' + usage : ''}${tail}`, tooltip };
  return { text: `$(hubot) ${agent}${usage ? ': ' + usage : ''}${tail}`, tooltip };
}
