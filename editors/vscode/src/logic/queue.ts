// The session's queue as the chat shows it: the messages waiting (queued
// prompts and steer messages not yet delivered), from the daemon's queue
// updates, and which of them left it by running or being delivered (the
// chat then draws them where that happened) rather than by a removal the
// user asked for.

import type { Delivery, QueueItem } from '../protocol';

export class MessageQueue {
  items: QueueItem[] = [];
  /** Ids this editor asked to remove: their leaving the queue is no start. */
  private readonly removing = new Set<string>();

  /**
   * update takes the whole queue of a queue update (or agent/queue's
   * answer) and returns the items that left it without being removed
   * from here: a queued prompt that started, a steer message delivered.
   */
  update(items: readonly QueueItem[] | null): QueueItem[] {
    const next = items ?? [];
    const kept = new Set(next.map((i) => i.id));
    const left = this.items.filter((i) => !kept.has(i.id) && !this.removing.delete(i.id));
    this.items = next.map((i) => ({ ...i }));
    return left;
  }

  /** removed notes that this editor asked to remove id (before asking: the update may come before the answer). */
  removed(id: string): void {
    this.removing.add(id);
  }

  get length(): number {
    return this.items.length;
  }

  find(id: string): QueueItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  clear(): void {
    this.items = [];
    this.removing.clear();
  }
}

/** deliveryLabel is a waiting message's label in the chat. */
export function deliveryLabel(d: Delivery): string {
  return d === 'steer' ? 'Steer · next safe point' : 'Queued';
}

/**
 * sendDelivery is how the chat sends what the user typed: while a prompt
 * runs, Enter queues and the steer key steers; when idle, either runs at
 * once with no delivery (today's behaviour, and the daemon's for both).
 */
export function sendDelivery(busy: boolean, steer: boolean): Delivery | undefined {
  if (!busy) return undefined;
  return steer ? 'steer' : 'queue';
}

/**
 * queuedAnswerShown says whether a queued or steer prompt's answer ends a
 * prompt the chat showed run: a steer message delivered to the running
 * turn ("steered") and one removed before it started end nothing.
 */
export function queuedAnswerShown(r: { stopReason: string; notice?: string; text?: string }): boolean {
  if (r.stopReason === 'steered') return false;
  return !(r.stopReason === 'cancelled' && r.notice === removedNotice && !r.text);
}

/** The notice of a queued prompt's answer when it was removed before it started (docs/protocol.md). */
export const removedNotice = 'removed from the queue';
