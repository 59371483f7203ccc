// agentLsp.spendLimit: the spend caps sent as initializationOptions.spendLimit
// (docs/protocol.md, "Spend caps"). A folder's settings may tighten a cap,
// never loosen or remove one: a repository cannot make the agent spend more.

import type { Inspected } from './settings';

export interface SpendLimit {
  sessionUsd?: number;
  dayUsd?: number;
  workspaceDayUsd?: number;
  sessionTokens?: number;
  warnAt?: number;
}

const capKeys = ['sessionUsd', 'dayUsd', 'workspaceDayUsd', 'sessionTokens'] as const;

function limitOf(v: unknown): SpendLimit {
  const out: SpendLimit = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  const o = v as Record<string, unknown>;
  for (const k of [...capKeys, 'warnAt'] as const) {
    const n = o[k];
    if (typeof n === 'number' && Number.isFinite(n) && n > 0 && (k !== 'warnAt' || n <= 1)) out[k] = n;
  }
  return out;
}

/**
 * readSpendLimit is the user's caps, each tightened by the folder's when
 * the folder's is lower (a cap the user has not set counts as none, so a
 * folder may add one); the earlier warning wins. undefined: no cap at all.
 */
export function readSpendLimit(i: Inspected): SpendLimit | undefined {
  const user = limitOf(i.globalValue !== undefined ? i.globalValue : i.defaultValue);
  const folder = limitOf(i.workspaceFolderValue !== undefined ? i.workspaceFolderValue : i.workspaceValue);
  const out: SpendLimit = { ...user };
  for (const k of [...capKeys, 'warnAt'] as const) {
    const f = folder[k];
    const u = out[k];
    if (f !== undefined && (u === undefined || f < u)) out[k] = f;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
