// The Plan view: the session's plan (todo_write's list) as a tree view
// under the chat, redrawn on every `plan` update and when a session is
// (re)opened (agent/session's plan). It is shown only while there is a
// plan (the agentLsp.hasPlan context), so an empty one takes no room.

import * as vscode from 'vscode';
import type { PlanItem } from './protocol';
import { planRows, planSummary, type PlanRow } from './logic/plan';

export const planViewId = 'agentLsp.plan';
/** The context key the Plan view's `when` reads (package.json). */
export const hasPlanContext = 'agentLsp.hasPlan';

export class PlanView implements vscode.TreeDataProvider<PlanRow>, vscode.Disposable {
  private rows: PlanRow[] = [];
  private items: readonly PlanItem[] = [];
  private view?: vscode.TreeView<PlanRow>;
  private shown = false;
  private readonly changed = new vscode.EventEmitter<PlanRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** register creates the tree view; its description shows the progress. */
  register(): vscode.Disposable {
    this.view = vscode.window.createTreeView(planViewId, { treeDataProvider: this });
    this.describe();
    return this.view;
  }

  set(items: readonly PlanItem[]): void {
    this.items = items;
    this.rows = planRows(items);
    if (this.shown !== items.length > 0) {
      this.shown = items.length > 0;
      void vscode.commands.executeCommand('setContext', hasPlanContext, this.shown);
    }
    this.changed.fire(undefined);
    this.describe();
  }

  getTreeItem(row: PlanRow): vscode.TreeItem {
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(row.icon, row.color ? new vscode.ThemeColor(row.color) : undefined);
    item.description = row.description;
    item.tooltip = row.tooltip;
    return item;
  }

  getChildren(row?: PlanRow): PlanRow[] {
    return row ? [] : this.rows;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private describe(): void {
    if (!this.view) return;
    this.view.description = planSummary(this.items);
  }
}
