// The wire types of a session's queue (docs/protocol.md, "Queue and
// steer"): agent/queue's params and answer, and the items the queue and
// steer updates carry.

import type { Delivery } from './session';

/** One message waiting in a session: a queued prompt, or a steer message not yet delivered. */
export interface QueueItem {
  /** Unique in the session; what agent/queue's remove and edit name. */
  id: string;
  prompt: string;
  delivery: Delivery;
}

/** agent/queue's params: the list alone, or one removal, or one edit (with the new prompt). */
export interface QueueParams {
  sessionId: string;
  remove?: string;
  edit?: string;
  prompt?: string;
}

/** agent/queue's answer: the whole queue after the change. */
export interface QueueResult {
  items: QueueItem[] | null;
}
