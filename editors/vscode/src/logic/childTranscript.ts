// A subagent's transcript (agent/transcript with parentToolCallId) as the
// Markdown document "Open transcript" shows: the child's prompt, its
// answers, and each tool call with its result.

import type { TranscriptResult } from '../protocol';
import { toolDetail } from './transcript';

/** fence is a code fence longer than any run of backticks in text, so a tool's output cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

function quoted(text: string): string {
  const f = fence(text);
  return `${f}text\n${text}\n${f}`;
}

/** childTranscriptMarkdown renders the child's conversation; title names its task call. */
export function childTranscriptMarkdown(r: Pick<TranscriptResult, 'entries' | 'totals'>, title: string): string {
  const out: string[] = [`# Subagent: ${title || 'task'}`, ''];
  for (const e of r.entries) {
    switch (e.kind) {
      case 'user':
        out.push('## Prompt', '', quoted(e.text ?? ''), '');
        break;
      case 'text':
        out.push(e.text ?? '', '');
        break;
      case 'reasoning':
        out.push(`> ${(e.text ?? '').replace(/\n/g, '\n> ')}`, '');
        break;
      case 'tool_call':
        out.push(`**${e.name}** ${toolDetail(e.arguments)}`, '');
        break;
      case 'tool_result':
        out.push(`${e.name}: ${e.status}`, '', quoted(e.output ?? ''), '');
        break;
      case 'compacted':
        out.push('## Summary of what came before', '', e.summary ?? '', '');
        break;
    }
  }
  if (r.totals) out.push('---', `${r.totals.promptTokens} prompt tokens (${r.totals.cachedTokens} cached), ${r.totals.completionTokens} completion tokens`);
  return out.join('\n');
}
