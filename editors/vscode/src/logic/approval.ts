// The daemon's approval popup (window/showMessageRequest) read back into
// its parts. The message is written by lsp/approver.go:
//
//   agent-lsp wants to run <tool> (risk <RISK>): <summary>
//   $ <command>                      (run_bash)
//   --- a/<path>                     (edits: a unified diff, at most 40 lines)
//   +++ b/<path>
//   @@ … @@
//   Why <RISK>: <reasons>            (when the risk has reasons)

import { applyUnifiedDiff, parseUnifiedDiff, type UnifiedDiff } from './unifiedDiff';

export interface Approval {
  /** False when the message is not in the daemon's format: only summary (the whole message) is set. */
  recognised: boolean;
  tool: string;
  risk: string;
  summary: string;
  command?: string;
  /** The path the diff edits, relative to the workspace. */
  path?: string;
  /** The diff as the popup shows it (or a note such as "(binary content: …)"). */
  diffText?: string;
  diff?: UnifiedDiff;
  reasons?: string;
}

const header = /^agent-lsp wants to run (\S+) \(risk ([A-Z]+|Risk\(-?\d+\))\): (.*)$/;

export function parseApproval(message: string): Approval {
  const lines = message.split('\n');
  const m = header.exec(lines[0]);
  if (!m) return { recognised: false, tool: '', risk: '', summary: message };
  const a: Approval = { recognised: true, tool: m[1], risk: m[2], summary: m[3] };
  let body = lines.slice(1);
  const why = `Why ${a.risk}: `;
  const whyAt = body.length > 0 && body[body.length - 1].startsWith(why) ? body.length - 1 : -1;
  if (whyAt >= 0) {
    a.reasons = body[whyAt].slice(why.length);
    body = body.slice(0, whyAt);
  }
  if (body.length === 0) return a;
  if (body[0].startsWith('$ ')) {
    a.command = [body[0].slice(2), ...body.slice(1)].join('\n');
    return a;
  }
  a.diffText = body.join('\n');
  if (body[0].startsWith('--- ') || body[0].startsWith('@@')) {
    const { diff } = parseUnifiedDiff(body);
    a.diff = diff;
    const target = diff.newPath ?? diff.oldPath;
    if (target) a.path = target.replace(/^[ab]\//, '');
  }
  return a;
}

export interface ProposedText {
  text: string;
  /** False when the popup's diff was cut: the text has only the hunks shown. */
  complete: boolean;
}

/**
 * proposedText is the document's text after the approval's edit: the diff
 * applied to the current text. It throws when the approval carries no
 * applicable diff or the diff does not fit the text.
 */
export function proposedText(current: string, a: Approval): ProposedText {
  if (!a.diff) throw new Error(a.diffText ? `the popup shows no text diff: ${a.diffText}` : 'the popup shows no diff');
  return { text: applyUnifiedDiff(current, a.diff), complete: a.diff.complete };
}

/** The title of the approval dialog: one line, the tool, the risk and the summary. */
export function approvalTitle(a: Approval): string {
  if (!a.recognised) return a.summary;
  return `agent-lsp wants to run ${a.tool} (risk ${a.risk}): ${a.summary}`;
}

/** The dialog's detail: the command or the diff, and the reasons. */
export function approvalDetail(a: Approval): string {
  const parts: string[] = [];
  if (a.command !== undefined) parts.push(`$ ${a.command}`);
  if (a.diffText !== undefined) parts.push(a.diffText);
  if (a.reasons) parts.push(`Why ${a.risk}: ${a.reasons}`);
  return parts.join('\n');
}
