// An approval (agent/approve) without VS Code: the answer sent for the
// user's choice, the dialog's title and detail, and the proposed text an
// edit's "Show diff" opens, built from the request's fields
// (docs/protocol.md, Structured approval) — nothing is read back from
// text; and the answer to any other window/showMessageRequest.

import type { ApproveAnswer, ApproveParams, MessageActionItem, ShowMessageRequestParams } from '../protocol';
import { applyHunks, locateHunks } from './review';

/**
 * answerApprove answers one agent/approve: decide gets the params and
 * returns the chosen option's id (undefined: dismissed). Anything that is
 * not an offered option is sent as null, which the daemon takes as Deny.
 */
export async function answerApprove(
  params: ApproveParams,
  decide: (params: ApproveParams) => Promise<string | undefined>,
): Promise<ApproveAnswer | null> {
  const options = params.options ?? [];
  if (options.length === 0) return null;
  const chosen = await decide({ ...params, reasons: params.reasons ?? [], options });
  return options.some((o) => o.id === chosen) ? { optionId: chosen as string } : null;
}

/**
 * answerMessageRequest answers any window/showMessageRequest as a plain
 * message with its buttons: show returns the chosen title (undefined:
 * dismissed); anything that is not an offered title is null.
 */
export async function answerMessageRequest(
  params: ShowMessageRequestParams,
  show: (params: ShowMessageRequestParams, titles: string[]) => Promise<string | undefined>,
): Promise<MessageActionItem | null> {
  const actions = params.actions ?? [];
  const chosen = await show(params, actions.map((a) => a.title));
  return actions.find((a) => a.title === chosen) ?? null;
}

/** The dialog's title: one line, the tool, the risk and the summary. */
export function approvalTitle(p: ApproveParams): string {
  return `agent-lsp wants to run ${p.tool} (risk ${p.risk.toUpperCase()}): ${p.summary}`;
}

/** A dialog shows at most this many diff lines: "Show diff" shows the whole edit. */
export const maxDetailDiffLines = 40;

/** The dialog's detail: the command, or the edit's hunks (cut after maxDetailDiffLines), and why the risk is what it is. */
export function approvalDetail(p: ApproveParams): string {
  const parts: string[] = [];
  // visibleCommand is what the user reads: command may hold a carriage
  // return or a bidi override that would show other text than runs.
  if (p.command !== undefined) parts.push(`$ ${p.visibleCommand ?? p.command}`);
  const diff = (p.hunks ?? []).flatMap((h) => h.diff.replace(/\n$/, '').split('\n'));
  if (diff.length > maxDetailDiffLines) {
    parts.push(...diff.slice(0, maxDetailDiffLines), `… (${diff.length - maxDetailDiffLines} more diff lines: Show diff shows them)`);
  } else {
    parts.push(...diff);
  }
  if (p.reasons.length > 0) parts.push(`Why ${p.risk.toUpperCase()}: ${p.reasons.join('; ')}`);
  return parts.join('\n');
}

/** canShowDiff: the approval is an edit of a file with line hunks. */
export function canShowDiff(p: ApproveParams): boolean {
  return (p.hunks ?? []).length > 0 && p.uri !== undefined && p.path !== undefined;
}

/**
 * proposedText is the document's text after the approval's edit: every
 * hunk, placed where its oldText is now (the user may have typed since the
 * agent read the file). It throws when a hunk's text is no longer there.
 */
export function proposedText(current: string, p: ApproveParams): string {
  return applyHunks(current, locateHunks(current, p.hunks ?? []));
}
