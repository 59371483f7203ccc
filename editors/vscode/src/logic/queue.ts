// The session's queue as the chat shows it: the messages waiting (queued
// prompts and steer messages not yet delivered), from the daemon's queue
// updates, and which of them left it by running or being delivered (the
// chat then draws them where that happened) rather than by a removal.
//
// A queued prompt that leaves the queue has started. A steer message that
// leaves it was delivered (the steer update follows), or runs as the next
// prompt (the turn ended before a safe point: its output follows), or was
// dropped by a cancel (its answer says removed): it waits in `leaving`
// until one of those says which.

import type { Delivery, QueueItem } from '../protocol';

export class MessageQueue {
  items: QueueItem[] = [];
  /** Ids this editor asked to remove: their leaving the queue is no start. */
  private readonly removing = new Set<string>();
  /** Steer messages that left the queue, not yet known delivered, run or dropped. */
  private leaving: QueueItem[] = [];

  /**
   * update takes the whole queue of a queue update and returns the queued
   * prompts that left it without being removed from here: they started.
   * A steer message that left waits in leaving (see above); a queued
   * prompt starting means those were dropped (a steer runs ahead of it).
   */
  update(items: readonly QueueItem[] | null): QueueItem[] {
    const next = items ?? [];
    const kept = new Set(next.map((i) => i.id));
    const left = this.items.filter((i) => !kept.has(i.id) && !this.removing.delete(i.id));
    this.items = next.map((i) => ({ ...i }));
    const started = left.filter((i) => i.delivery === 'queue');
    if (started.length > 0) this.leaving = [];
    this.leaving.push(...left.filter((i) => i.delivery === 'steer'));
    return started;
  }

  /** delivered: the steer update said id entered the history (no longer leaving). */
  delivered(id: string): void {
    this.leaving = this.leaving.filter((i) => i.id !== id);
  }

  /**
   * outputStarted is called on the session's own output (text, reasoning,
   * a tool call): a steer message still leaving then runs as a prompt,
   * and is returned to be drawn as one, before that output.
   */
  outputStarted(): QueueItem[] {
    const ran = this.leaving;
    this.leaving = [];
    return ran;
  }

  /** answered: a steer message's request was answered removed: it was dropped. */
  dropped(prompt: string): void {
    const i = this.leaving.findIndex((l) => l.prompt === prompt);
    if (i >= 0) this.leaving.splice(i, 1);
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
    this.leaving = [];
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
