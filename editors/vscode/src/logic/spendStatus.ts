// The status bar's part on the spend caps: the session's spend against its
// cap, and a tooltip line for each cap set.

import type { Spend } from '../protocol';
import { formatCost, formatTokens } from './status';

/** capText is " of $1.00" for the session's dollar cap (or its token cap), "" without one. */
export function capText(s: Spend | undefined): string {
  if (s?.sessionCapUsd) return ` of ${formatCost(s.sessionCapUsd)}`;
  if (s?.tokenCap) return ` (${formatTokens(s.sessionTokens)} of ${formatTokens(s.tokenCap)} tok cap)`;
  return '';
}

/** spendLines are the tooltip's lines, one per cap set. */
export function spendLines(s: Spend | undefined): string[] {
  if (!s) return [];
  const lines: string[] = [];
  if (s.sessionCapUsd) lines.push(`Session cap: ${formatCost(s.sessionUsd)} of ${formatCost(s.sessionCapUsd)}`);
  if (s.dayCapUsd) lines.push(`Day cap: ${formatCost(s.dayUsd)} of ${formatCost(s.dayCapUsd)}`);
  if (s.workspaceDayCapUsd) lines.push(`Workspace day cap: ${formatCost(s.workspaceDayUsd)} of ${formatCost(s.workspaceDayCapUsd)}`);
  if (s.tokenCap) lines.push(`Token cap: ${s.sessionTokens} of ${s.tokenCap} tokens`);
  if (lines.length) lines.push('Raise a cap: /budget in the chat');
  return lines;
}

/** budgetPrompt is the /budget line for a cap the user typed ("5", "$2.50"), undefined for anything but a positive amount. */
export function budgetPrompt(input: string): string | undefined {
  const text = input.trim().replace(/^\$/, '');
  const usd = text === '' ? NaN : Number(text);
  return Number.isFinite(usd) && usd > 0 ? `/budget sessionUsd=${usd}` : undefined;
}
