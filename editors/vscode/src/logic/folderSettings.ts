// The user-only settings a folder's own settings files set. VS Code drops
// a machine-scoped value from a folder's settings before inspect() sees it
// (current versions; older ones and some forks pass it through), so the
// notice naming what a folder tried to set reads the files themselves:
// each folder's .vscode/settings.json and the workspace file's "settings".
// They are parsed as VS Code parses them (JSON with comments and trailing
// commas) with Microsoft's jsonc-parser, the library VS Code itself uses.

import { parse, type ParseError } from 'jsonc-parser';
import { userOnlySettings, type Inspected } from './settings';

/**
 * folderUserOnlyValues is the agentLsp.* user-only values set in the
 * given settings texts (a .vscode/settings.json; wrapped: a workspace
 * file, whose settings are under "settings"), keyed without the prefix.
 * An unreadable text sets nothing.
 */
export function folderUserOnlyValues(texts: readonly { text: string; wrapped?: boolean }[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const { text, wrapped } of texts) {
    const errors: ParseError[] = [];
    let doc: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (wrapped && doc && typeof doc === 'object') doc = (doc as Record<string, unknown>).settings;
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) continue;
    const settings = doc as Record<string, unknown>;
    for (const key of userOnlySettings) {
      const v = settings[`agentLsp.${key}`];
      if (v !== undefined) out.set(key, v);
    }
  }
  return out;
}

/**
 * withFolderValues is inspect with the files' values as workspaceValue
 * where inspect shows none: readSettings then ignores them and names them.
 */
export function withFolderValues(inspect: (key: string) => Inspected | undefined, values: ReadonlyMap<string, unknown>): (key: string) => Inspected | undefined {
  return (key) => {
    const i = inspect(key);
    if (!values.has(key)) return i;
    if (i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined) return i;
    return { ...i, workspaceValue: values.get(key) };
  };
}
