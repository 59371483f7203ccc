// The chat view's HTML: every string from the model or a tool is escaped
// here, so the webview only ever inserts markup this file made.

import type { MentionStatus } from '../protocol';
import type { Entry, ToolCardStatus } from './transcript';
import { formatCost, formatTokens } from './status';
import { escapeHtml } from './escape';
import { markdownStyles } from './markdownStyles';
import { AnswerRenderer, type RenderedAnswer } from './markdownStream';
import { childHtml, childStyles } from './renderChild';

export { escapeHtml };

/** The renderer for callers with no workspace (the e2e screenshot, tests): no path is a link. */
export const plainAnswers = new AnswerRenderer();

/** richText renders model text that arrives whole (a command's answer, a summary) as markdown. */
export function richText(text: string, answers: AnswerRenderer = plainAnswers): string {
  return answers.html(text);
}

/**
 * answerHtml is a streaming answer's body: its final blocks, then its tail
 * in an element of its own, which media/chat.js replaces on each delta.
 */
export function answerHtml(r: RenderedAnswer): string {
  return `<div class="md-blocks">${r.blocks.join('')}</div><div class="md-tail">${r.tail}</div>`;
}

const statusLabel: Record<ToolCardStatus, string> = {
  running: 'running…',
  completed: 'done',
  failed: 'failed',
  denied: 'denied',
};

const mentionStatusLabel: Record<MentionStatus, string> = {
  attached: 'attached',
  missing: 'no such file',
  refused: 'outside the workspace',
  failed: 'could not be read',
};

const maxOutputChars = 4000;

/** renderEntry is one transcript entry as an element carrying its index. */
export function renderEntry(e: Entry, index: number, answers: AnswerRenderer = plainAnswers): string {
  const open = (cls: string): string => `<div class="entry ${cls}" data-i="${index}">`;
  switch (e.kind) {
    case 'prompt':
      return `${open('prompt')}<div class="who">You</div><div class="body">${escapeHtml(e.text)}</div>` +
        (e.context ? `<div class="context">${escapeHtml(e.context)}</div>` : '') + '</div>';
    case 'text':
      return `${open('text')}<div class="body markdown">${answerHtml(answers.stream(e, e.text))}</div></div>`;
    case 'reasoning':
      return `${open('reasoning')}<div class="body">${escapeHtml(e.text)}</div></div>`;
    case 'tool': {
      const output = e.output === undefined ? '' :
        `<details><summary>output</summary><pre>${escapeHtml(clipOutput(e.output))}</pre></details>`;
      return `${open(`tool ${e.status}${e.child ? ' task' : ''}`)}<div class="tool-head"><span class="tool-name">${escapeHtml(e.name)}</span>` +
        `<span class="tool-status">${statusLabel[e.status]}</span></div>` +
        (e.detail ? `<div class="tool-detail">${escapeHtml(e.detail)}</div>` : '') +
        (e.child ? childHtml(e.toolCallId, e.child) : '') + `${output}</div>`;
    }
    case 'steer':
      return `${open('steer')}<div class="who">You · steer</div><div class="body">${escapeHtml(e.text)}</div></div>`;
    case 'round': {
      const cached = e.usage.cachedTokens ? ` (${formatTokens(e.usage.cachedTokens)} cached)` : '';
      return `${open('round')}${formatTokens(e.usage.promptTokens)} in${cached} · ` +
        `${formatTokens(e.usage.completionTokens)} out · ${escapeHtml(formatCost(e.cost))}</div>`;
    }
    case 'compacted':
      return `${open('notice')}History compacted: ${formatTokens(e.beforeTokens)} → ${formatTokens(e.afterTokens)} tokens</div>`;
    case 'error':
      return `${open('error')}${escapeHtml(e.message)}</div>`;
    case 'notice':
      return `${open('notice')}${escapeHtml(e.text)}</div>`;
    case 'setting':
      return `${open('setting')}${escapeHtml(e.text)}</div>`;
    case 'mention': {
      const what = escapeHtml(e.path) + (e.lines ? ` (${escapeHtml(e.lines)})` : '');
      const head = e.status === 'attached' ? `Attached ${what}` : `Not attached: ${what} — ${mentionStatusLabel[e.status]}`;
      return `${open(`mention ${e.status}`)}${head}${e.message && e.status !== 'attached' ? `: ${escapeHtml(e.message)}` : ''}</div>`;
    }
    case 'command':
      return `${open('command')}<div class="tool-name">${escapeHtml(e.name)}</div><div class="body markdown">${richText(e.text, answers)}</div></div>`;
    case 'summary':
      return `${open('notice summary')}<details><summary>History compacted: the conversation before this point, summarised</summary>` +
        `<div class="body markdown">${richText(e.text, answers)}</div></details></div>`;
  }
}

function clipOutput(s: string): string {
  return s.length <= maxOutputChars ? s : s.slice(0, maxOutputChars) + `\n… (${s.length - maxOutputChars} more characters)`;
}

export function renderTranscript(entries: readonly Entry[], answers: AnswerRenderer = plainAnswers): string {
  return entries.map((e, i) => renderEntry(e, i, answers)).join('\n');
}

export interface PageOptions {
  /** A fresh random value per page: only scripts and styles carrying it run. */
  nonce: string;
  /** The webview's cspSource (VS Code) for the script file; empty outside VS Code. */
  cspSource: string;
  /** The chat script's URI; none renders a static page (the screenshot). */
  scriptUri?: string;
  transcriptHtml: string;
  /** The waiting messages (renderChild.ts queueHtml). */
  queueHtml?: string;
  status?: string;
}

/** The steer shortcut as the page names it. */
export const steerKey = 'Ctrl+Enter (⌘+Enter)';

/** The input's hint: what Enter and the steer key do. */
const inputHint = 'Ask agent-lsp… (/ commands, @ files, paste images; Enter sends or queues, Ctrl+Enter steers)';

/** renderPage is the chat view's whole document. */
export function renderPage(o: PageOptions): string {
  const scriptSrc = o.cspSource ? `${o.cspSource} 'nonce-${o.nonce}'` : `'nonce-${o.nonce}'`;
  const csp = `default-src 'none'; style-src 'nonce-${o.nonce}'; script-src ${scriptSrc}; img-src data:;`;
  const script = o.scriptUri ? `<script nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${o.nonce}">${styles}${childStyles}${markdownStyles}</style>
</head>
<body>
<div id="empty"><p>Ask the agent about this workspace, or to change it: it reads and searches the files, and asks before it edits or runs anything.</p><p class="example">Try: <q>Explain what this project does and where its entry point is.</q></p><p class="hint">/ for commands, @ to attach a file, paste or drop an image; Alt+I edits the selection in place.</p></div>
<div id="transcript">${o.transcriptHtml}</div>
<div id="queue">${o.queueHtml ?? ''}</div>
<div id="status">${escapeHtml(o.status ?? '')}</div>
<form id="ask">
<ul id="suggest" role="listbox" hidden></ul>
<div id="attachments" aria-label="images to send"></div>
<textarea id="input" rows="3" placeholder="${inputHint}"></textarea>
<div class="buttons"><button type="submit" id="send">Send</button><button type="button" id="steer" class="secondary" title="${steerKey}: deliver to the running turn" hidden>Steer</button><button type="button" id="cancel" class="secondary">Cancel</button></div>
</form>
${script}
</body>
</html>
`;
}

const styles = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #cccccc); background: var(--vscode-sideBar-background, #1e1e1e);
  margin: 0; padding: 0 10px; display: flex; flex-direction: column; height: 100vh; box-sizing: border-box; }
#transcript { flex: 1; overflow-y: auto; padding: 8px 0; }
#empty { padding: 12px 0 0; opacity: 0.85; line-height: 1.45; }
#empty .example { font-style: italic; }
#empty .hint { font-size: 0.9em; opacity: 0.75; }
body:has(#transcript .entry) #empty { display: none; }
.entry { margin: 6px 0; line-height: 1.45; }
.body { white-space: pre-wrap; overflow-wrap: anywhere; }
.prompt { border-left: 3px solid var(--vscode-textLink-foreground, #3794ff); padding-left: 8px; }
.prompt .who { font-weight: 600; font-size: 0.9em; opacity: 0.8; }
.context { font-size: 0.85em; opacity: 0.7; font-family: var(--vscode-editor-font-family, monospace); }
.reasoning { opacity: 0.55; font-style: italic; font-size: 0.95em; }
code, pre { font-family: var(--vscode-editor-font-family, ui-monospace, monospace); font-size: 0.92em; }
code { background: var(--vscode-textCodeBlock-background, rgba(128,128,128,0.18)); padding: 0 3px; border-radius: 3px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
pre.code { background: var(--vscode-textCodeBlock-background, rgba(128,128,128,0.18)); padding: 6px 8px; border-radius: 4px; }
.tool { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); border-radius: 5px; padding: 5px 8px;
  background: var(--vscode-editorWidget-background, rgba(128,128,128,0.08)); }
.tool-head { display: flex; justify-content: space-between; gap: 8px; }
.tool-name { font-weight: 600; font-family: var(--vscode-editor-font-family, monospace); }
.tool-status { font-size: 0.85em; padding: 0 6px; border-radius: 8px; }
.tool.running .tool-status { background: rgba(55,148,255,0.25); }
.tool.completed .tool-status { background: rgba(80,180,80,0.3); }
.tool.failed .tool-status { background: rgba(240,80,80,0.35); }
.tool.denied .tool-status { background: rgba(220,160,40,0.35); }
.tool-detail { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.9em; opacity: 0.85; overflow-wrap: anywhere; }
details summary { cursor: pointer; font-size: 0.85em; opacity: 0.75; }
.round, .notice { font-size: 0.82em; opacity: 0.6; }
.error { color: var(--vscode-errorForeground, #f48771); }
.setting { font-size: 0.85em; opacity: 0.8; font-style: italic; }
.mention { font-size: 0.85em; opacity: 0.75; font-family: var(--vscode-editor-font-family, monospace); }
.mention.missing, .mention.refused, .mention.failed { opacity: 1; color: var(--vscode-editorWarning-foreground, #cca700); }
.command { border-left: 3px solid var(--vscode-panel-border, rgba(128,128,128,0.5)); padding-left: 8px; }
#ask { position: relative; }
#suggest { position: absolute; bottom: 100%; left: 0; right: 0; margin: 0 0 2px; padding: 2px 0; list-style: none; max-height: 14em; overflow-y: auto;
  background: var(--vscode-editorSuggestWidget-background, #252526); border: 1px solid var(--vscode-editorSuggestWidget-border, #454545); border-radius: 3px; }
#suggest li { padding: 1px 8px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#suggest li .detail { opacity: 0.7; margin-left: 8px; font-size: 0.9em; }
#suggest li.active { color: var(--vscode-editorSuggestWidget-selectedForeground, inherit); background: var(--vscode-editorSuggestWidget-selectedBackground, #04395e); }
#status { font-size: 0.85em; opacity: 0.75; min-height: 1.2em; padding: 2px 0; }
#ask { display: flex; flex-direction: column; gap: 4px; padding-bottom: 8px; }
textarea { resize: vertical; font: inherit; color: var(--vscode-input-foreground, inherit);
  background: var(--vscode-input-background, rgba(128,128,128,0.12)); border: 1px solid var(--vscode-input-border, rgba(128,128,128,0.4));
  border-radius: 3px; padding: 4px 6px; }
.buttons { display: flex; gap: 6px; }
button { font: inherit; border: none; padding: 3px 12px; border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0e639c); }
button.secondary { color: var(--vscode-button-secondaryForeground, #fff); background: var(--vscode-button-secondaryBackground, #3a3d41); }
`;
