// The HTML of a subagent under its task card and of the messages waiting
// in the queue. Like render.ts, every string from the model, a tool or
// the user is escaped here.

import type { QueueItem } from '../protocol';
import type { ChildEntry, ChildProgress } from './subagents';
import { deliveryLabel } from './queue';
import { escapeHtml } from './escape';
import { formatCost, formatTokens } from './status';

const childStatus: Record<string, string> = { running: 'running…', completed: 'done', failed: 'failed', denied: 'denied' };

/** childUsage is the child's usage line: its model calls, tokens and cost. */
export function childUsage(c: ChildProgress): string {
  if (c.calls === 0) return 'no model call yet';
  const cached = c.usage.cachedTokens ? ` (${formatTokens(c.usage.cachedTokens)} cached)` : '';
  return `${c.calls} model call${c.calls === 1 ? '' : 's'} · ${formatTokens(c.usage.promptTokens)} in${cached} · ` +
    `${formatTokens(c.usage.completionTokens)} out · ${formatCost(c.cost)}`;
}

function childEntry(e: ChildEntry): string {
  switch (e.kind) {
    case 'text':
      return `<div class="child-text">${escapeHtml(e.text)}</div>`;
    case 'reasoning':
      return `<div class="child-text reasoning">${escapeHtml(e.text)}</div>`;
    case 'tool':
      return `<div class="child-tool ${e.status}"><span class="tool-name">${escapeHtml(e.name)}</span>` +
        (e.detail ? ` <span class="tool-detail">${escapeHtml(e.detail)}</span>` : '') +
        ` <span class="tool-status">${childStatus[e.status] ?? escapeHtml(e.status)}</span></div>`;
    case 'error':
      return `<div class="child-text error">${escapeHtml(e.message)}</div>`;
    case 'retry':
      return `<div class="child-text notice">${escapeHtml(e.message)}</div>`;
  }
}

/**
 * childHtml is a task card's subagent: a collapsible block (open; the
 * webview keeps it as the user left it) with the child's steps indented,
 * its usage line and the button that opens its transcript.
 */
export function childHtml(toolCallId: string, c: ChildProgress): string {
  const steps = c.entries.filter((e) => e.kind === 'tool').length;
  const summary = `Subagent · ${steps} tool call${steps === 1 ? '' : 's'}`;
  return `<details class="child" open><summary>${summary}</summary>` +
    `<div class="child-entries">${c.entries.map(childEntry).join('')}</div>` +
    `<div class="child-usage">${escapeHtml(childUsage(c))}` +
    ` <button type="button" class="link" data-child-transcript="${escapeHtml(toolCallId)}">Open transcript</button></div></details>`;
}

/**
 * queueHtml is the list of waiting messages above the input: each a
 * dimmed bubble saying how it waits, with its edit and remove buttons.
 */
export function queueHtml(items: readonly QueueItem[]): string {
  if (items.length === 0) return '';
  return items
    .map((i) =>
      `<div class="queued ${i.delivery}" data-queue-id="${escapeHtml(i.id)}"><div class="queued-head">` +
      `<span class="who">${deliveryLabel(i.delivery)}</span><span class="queued-buttons">` +
      `<button type="button" class="icon" data-queue-action="edit" title="Edit">✎</button>` +
      `<button type="button" class="icon" data-queue-action="remove" title="Remove">✕</button></span></div>` +
      `<div class="body">${escapeHtml(i.prompt)}</div></div>`)
    .join('');
}

export const childStyles = `
.steer { border-left: 3px dashed var(--vscode-editorWarning-foreground, #cca700); padding-left: 8px; }
.steer .who { font-weight: 600; font-size: 0.9em; opacity: 0.8; }
details.child { margin-top: 4px; }
.child-entries { margin-left: 6px; padding-left: 8px; border-left: 2px solid var(--vscode-panel-border, rgba(128,128,128,0.4)); }
.child-tool { font-size: 0.92em; }
.child-tool .tool-status { font-size: 0.85em; opacity: 0.8; }
.child-tool.running .tool-status { background: rgba(55,148,255,0.25); }
.child-tool.completed .tool-status { background: rgba(80,180,80,0.3); }
.child-tool.failed .tool-status, .child-tool.denied .tool-status { background: rgba(240,80,80,0.3); }
.child-text { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.92em; }
.child-usage { font-size: 0.82em; opacity: 0.7; margin-top: 2px; }
button.link { background: none; color: var(--vscode-textLink-foreground, #3794ff); padding: 0 4px; font-size: 1em; }
#queue:empty { display: none; }
#queue { display: flex; flex-direction: column; gap: 4px; padding: 4px 0; max-height: 30vh; overflow-y: auto; }
.queued { opacity: 0.6; border: 1px dashed var(--vscode-panel-border, rgba(128,128,128,0.5)); border-radius: 5px; padding: 3px 6px; }
.queued.steer { border-color: var(--vscode-editorWarning-foreground, #cca700); }
.queued-head { display: flex; justify-content: space-between; font-size: 0.85em; }
.queued .who { font-weight: 600; }
button.icon { background: none; color: inherit; padding: 0 4px; }
#attachments:empty { display: none; }
#attachments { display: flex; flex-wrap: wrap; gap: 4px; padding: 2px 0; }
.attachment { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.5)); border-radius: 4px; padding: 0 2px 0 6px; font-size: 0.85em; }
`;
