// What an applied workspace/applyEdit touched, to save those documents
// afterwards (agentLsp.autoSave) so that commands the agent runs see them.

interface TextDocumentEditLike {
  textDocument: { uri: string };
}

interface ResourceOperationLike {
  kind: string;
  uri?: string;
  newUri?: string;
}

export interface WorkspaceEditLike {
  changes?: Record<string, unknown>;
  documentChanges?: ReadonlyArray<TextDocumentEditLike | ResourceOperationLike>;
}

/** editedUris lists the documents an edit changes or creates, each once, in order (deleted ones excluded). */
export function editedUris(edit: WorkspaceEditLike): string[] {
  const seen = new Set<string>();
  const add = (u: string | undefined): void => {
    if (u) seen.add(u);
  };
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) add(change.textDocument.uri);
    else if (change.kind === 'create') add(change.uri);
    else if (change.kind === 'rename') add(change.newUri);
  }
  for (const uri of Object.keys(edit.changes ?? {})) add(uri);
  return [...seen];
}
