// The mode and model pickers' texts: what each mode allows, and a model
// preset's one-line summary (context window and prices).

import type { CurrentModel, Mode, ModelPreset } from '../protocol';
import { formatTokens } from './status';

export const modeDescriptions: Record<Mode, string> = {
  ask: 'read-only tools: the agent looks, never touches',
  plan: 'read-only tools and the plan: the answer is a plan',
  default: 'every tool; edits and commands ask first',
  'auto-edit': 'edits inside the workspace without a popup; commands still ask',
};

/** presetDescription: "deepseek-flash · openai". */
export function presetDescription(p: ModelPreset): string {
  return `${p.model} · ${p.provider}`;
}

/** presetDetail: "128k context · $0.27 in / $1.1 out per M tokens · https://…". */
export function presetDetail(p: ModelPreset): string {
  const parts: string[] = [];
  if (p.contextWindow) parts.push(`${formatTokens(p.contextWindow)} context`);
  if (p.prices) parts.push(`$${trim(p.prices.input)} in / $${trim(p.prices.output)} out per M tokens${p.prices.peak ? ' (off-peak)' : ''}`);
  if (p.baseURL) parts.push(p.baseURL);
  if (!p.apiKeyEnv || p.apiKeyEnv === 'none') parts.push('no key');
  return parts.join(' · ');
}

function trim(n: number): string {
  return String(Number(n.toFixed(4)));
}

/** isCurrent tells whether the preset is the model the session talks to. */
export function isCurrent(p: ModelPreset, current: CurrentModel | undefined): boolean {
  return current !== undefined && p.provider === current.provider && p.model === current.model && p.baseURL === current.baseURL;
}

/** modelLabel: "deepseek-flash (openai)". */
export function modelLabel(m: CurrentModel): string {
  return `${m.model} (${m.provider})`;
}
