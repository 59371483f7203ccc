// Inline completion (ghost text) in VS Code. vscode-languageclient 11
// registers the InlineCompletionItemProvider itself, and only once the
// daemon announced inlineCompletionProvider (it does only when
// agentLsp.completion.* is configured), so the extension registers none of
// its own: this middleware owns the request and the mapping
// (logic/inline.ts, unit-tested), passing VS Code's cancellation token on,
// so a keystroke cancels the request ($/cancelRequest) and the daemon
// closes the model's stream. Accepting (Tab) and partial accepts (Ctrl+→
// word, the line command) are VS Code's own: the items carry no command.

import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { ghostItems, inlineParams, type Span, type WireResult } from './logic/inline';

export const inlineCompletionMethod = 'textDocument/inlineCompletion';

/** The smallest client the middleware needs (a LanguageClient). */
export interface InlineClient {
  sendRequest<R>(method: string, params: unknown, token: vscode.CancellationToken): Promise<R>;
}

/** The request was cancelled (LSP's RequestCancelled): a keystroke since, not a failure. */
const requestCancelled = -32800;

export function inlineMiddleware(
  client: () => InlineClient | undefined,
  log: (message: string) => void,
): Pick<Middleware, 'provideInlineCompletionItems'> {
  return {
    provideInlineCompletionItems: async (document, position, context, token) => {
      const c = client();
      if (!c || token.isCancellationRequested) return [];
      const selected = context.selectedCompletionInfo
        ? { range: toSpan(context.selectedCompletionInfo.range), text: context.selectedCompletionInfo.text }
        : undefined;
      const params = inlineParams(document.uri.toString(), position, context.triggerKind, selected);
      let result: WireResult;
      try {
        result = await c.sendRequest<WireResult>(inlineCompletionMethod, params, token);
      } catch (err) {
        // Cancelled by a newer keystroke, or the daemon gone: no ghost
        // text (agent/completionStatus says when the model failed).
        if ((err as { code?: unknown })?.code !== requestCancelled && !token.isCancellationRequested) {
          log(`${inlineCompletionMethod}: ${err instanceof Error ? err.message : String(err)}`);
        }
        return [];
      }
      return ghostItems(result, token.isCancellationRequested).map(
        (g) => new vscode.InlineCompletionItem(g.insertText, g.range ? toRange(g.range) : undefined),
      );
    },
  };
}

function toSpan(r: vscode.Range): Span {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

function toRange(s: Span): vscode.Range {
  return new vscode.Range(s.start.line, s.start.character, s.end.line, s.end.character);
}
