// The plan view's model: the session's plan (todo_write's list, the
// `plan` update) as the rows of the tree view, with their icons.

import type { PlanItem, PlanStatus } from '../protocol';

export interface PlanRow {
  label: string;
  status: PlanStatus;
  /** A codicon id (ThemeIcon). */
  icon: string;
  /** A theme colour id for the icon, when it has one. */
  color?: string;
  description: string;
  tooltip: string;
}

const looks: Record<PlanStatus, { icon: string; color?: string; description: string }> = {
  pending: { icon: 'circle-large-outline', description: 'pending' },
  in_progress: { icon: 'sync~spin', color: 'charts.blue', description: 'in progress' },
  completed: { icon: 'pass-filled', color: 'testing.iconPassed', description: 'done' },
};

/** statusOf reads a status, taking one this version does not know (a newer daemon) as pending. */
export function statusOf(s: string): PlanStatus {
  return s === 'in_progress' || s === 'completed' ? s : 'pending';
}

/** planRows are the tree view's rows, in the plan's order. */
export function planRows(items: readonly PlanItem[]): PlanRow[] {
  return items.map((item, i) => {
    const status = statusOf(item.status);
    const look = looks[status];
    const label = item.content.replace(/\s+/g, ' ').trim() || '(empty)';
    const row: PlanRow = { label, status, icon: look.icon, description: look.description, tooltip: `${i + 1}. ${item.content} (${look.description})` };
    if (look.color) row.color = look.color;
    return row;
  });
}

/** planSummary is the view's description: "2/5 done", "" for no plan. */
export function planSummary(items: readonly PlanItem[]): string {
  if (items.length === 0) return '';
  const done = items.filter((i) => statusOf(i.status) === 'completed').length;
  return `${done}/${items.length} done`;
}
