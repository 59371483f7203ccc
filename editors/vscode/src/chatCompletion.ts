// The sources of the chat input's completion (src/logic/completion.ts):
// the slash commands from the daemon (agent/commands) and the workspace's
// files (vscode.workspace.findFiles), each cached: the commands for a few
// seconds (MCP servers join while the daemon runs), the files until one is
// created or deleted.

import * as vscode from 'vscode';
import type { Daemon } from './daemon';
import type { CommandInfo } from './protocol';
import { completeAt, type Completion } from './logic/completion';

const commandsTtlMs = 10_000;
const maxFiles = 5000;

export class ChatCompletion implements vscode.Disposable {
  private commands?: { at: number; list: Promise<readonly CommandInfo[]> };
  private files?: Promise<readonly string[]>;
  private readonly watcher: vscode.FileSystemWatcher;

  constructor(private readonly daemon: () => Daemon) {
    this.watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this.watcher.onDidCreate(() => (this.files = undefined));
    this.watcher.onDidDelete(() => (this.files = undefined));
  }

  complete(text: string, cursor: number): Promise<Completion | undefined> {
    return completeAt(text, cursor, { commands: () => this.slashCommands(), files: () => this.workspaceFiles() });
  }

  private slashCommands(): Promise<readonly CommandInfo[]> {
    const now = Date.now();
    if (!this.commands || now - this.commands.at > commandsTtlMs) {
      const list = this.daemon()
        .agent()
        .then(({ agent }) => agent.commands())
        .catch(() => {
          this.commands = undefined; // ask again next time
          return [] as CommandInfo[];
        });
      this.commands = { at: now, list };
    }
    return this.commands.list;
  }

  private workspaceFiles(): Promise<readonly string[]> {
    this.files ??= Promise.resolve(
      vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', maxFiles).then(
        (uris) => uris.map((u) => vscode.workspace.asRelativePath(u, false).replace(/\\/g, '/')).sort(),
        () => [] as string[],
      ),
    );
    return this.files;
  }

  dispose(): void {
    this.watcher.dispose();
  }
}
