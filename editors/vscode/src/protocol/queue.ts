// The wire types of a session's queue (docs/protocol.md, "Queue and
// steer"): agent/prompt's delivery, agent/queue, and the queue's items as
// agent/queue answers them and agent/update kind "queue" sends them.

import type { SessionParams } from './session';

/** What becomes of a prompt sent while another one of the session runs. */
export type Delivery = 'queue' | 'steer';

/** A queued prompt not yet started, or a steer message not yet delivered. */
export interface QueueItem {
  /** Unique in the session; what agent/queue's remove and edit name. */
  id: string;
  prompt: string;
  delivery: Delivery;
}

/** agent/queue: the session alone lists; remove, or edit with prompt, changes one item. */
export interface QueueParams extends SessionParams {
  remove?: string;
  edit?: string;
  prompt?: string;
}

/** agent/queue's answer: the whole queue after the change. */
export interface QueueResult {
  items: QueueItem[] | null;
}
