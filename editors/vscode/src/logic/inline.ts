// Inline completion (ghost text) over the daemon's LSP 3.18
// textDocument/inlineCompletion (docs/protocol.md#inline-completion):
// VS Code's provider context as the request's params, the answer as the
// items VS Code shows, and agent/completionStatus as the status bar's
// words. Free of the vscode module, so the mapping is unit-tested.

/** A position, a range: UTF-16 code units, the same in VS Code and on the wire. */
export interface Pos {
  line: number;
  character: number;
}

export interface Span {
  start: Pos;
  end: Pos;
}

/** VS Code's InlineCompletionTriggerKind: Invoke 0, Automatic 1. */
export const vscodeTrigger = { invoke: 0, automatic: 1 } as const;

/** LSP's InlineCompletionTriggerKind: Invoked 1, Automatic 2. */
export const lspTrigger = { invoked: 1, automatic: 2 } as const;

export interface InlineParams {
  textDocument: { uri: string };
  position: Pos;
  context: { triggerKind: number; selectedCompletionInfo?: { range: Span; text: string } };
}

/** The answer's items as the daemon sends them: at most one, a plain string. */
export interface WireItem {
  insertText: string | { kind: 'snippet'; value: string };
  range?: Span;
  filterText?: string;
}

export type WireResult = { items: WireItem[] } | WireItem[] | null | undefined;

/** An item to show: text to insert over range (undefined: at the cursor). */
export interface GhostItem {
  insertText: string;
  range?: Span;
  filterText?: string;
}

/**
 * inlineParams is the request for VS Code's provider call: the cursor, the
 * trigger (an explicit Alt+\ or editor.action.inlineSuggest.trigger is
 * Invoked: the daemon skips its debounce), and the suggest widget's
 * selected item, which the suggestion must start with.
 */
export function inlineParams(
  uri: string,
  position: Pos,
  triggerKind: number,
  selected?: { range: Span; text: string },
): InlineParams {
  const params: InlineParams = {
    textDocument: { uri },
    position: pos(position),
    context: { triggerKind: triggerKind === vscodeTrigger.invoke ? lspTrigger.invoked : lspTrigger.automatic },
  };
  if (selected) params.context.selectedCompletionInfo = { range: span(selected.range), text: selected.text };
  return params;
}

/**
 * ghostItems maps the answer to what VS Code shows. The range is kept as
 * sent: it covers what the suggestion replaces on the cursor's line (a
 * closing bracket the model wrote again), so accepting does not double
 * it. A result that arrived after the request was cancelled (a keystroke
 * since) is no item: VS Code would show text for a cursor that moved.
 */
export function ghostItems(result: WireResult, cancelled: boolean): GhostItem[] {
  if (cancelled || !result) return [];
  const items = Array.isArray(result) ? result : result.items ?? [];
  const out: GhostItem[] = [];
  for (const it of items) {
    const text = typeof it.insertText === 'string' ? it.insertText : it.insertText?.value;
    if (!text) continue;
    const g: GhostItem = { insertText: text };
    if (it.range) g.range = span(it.range);
    if (it.filterText !== undefined) g.filterText = it.filterText;
    out.push(g);
  }
  return out;
}

/** agent/completionStatus's params. */
export interface CompletionStatus {
  uri: string;
  state: 'completing' | 'idle' | 'error';
  message?: string;
}

/** What the status bar shows of inline completion: nothing when idle. */
export interface CompletionView {
  /** Appended to the status text ("" when idle). */
  text: string;
  /** A tooltip line, for an error its message. */
  tooltip?: string;
}

export function completionView(s: CompletionStatus | undefined): CompletionView {
  if (!s || s.state === 'idle') return { text: '' };
  if (s.state === 'completing') return { text: '$(loading~spin) completing', tooltip: 'Inline completion: asking the completion model' };
  return { text: '$(error) completion', tooltip: `Inline completion failed: ${s.message ?? 'the completion model answered with an error'}` };
}

function pos(p: Pos): Pos {
  return { line: p.line, character: p.character };
}

function span(r: Span): Span {
  return { start: pos(r.start), end: pos(r.end) };
}
