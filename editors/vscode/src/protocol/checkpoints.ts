// The wire types of checkpoints and rewind: agent/checkpoints, agent/rewind.

/** One checkpoint of agent/checkpoints: the state before a prompt. */
export interface Checkpoint {
  checkpointId: string;
  prompt: string;
  createdAt: string;
  /** The files the prompt changed, relative to the workspace. */
  files: string[];
}

export interface CheckpointsResult {
  checkpoints: Checkpoint[] | null;
}

export interface RewindParams {
  sessionId: string;
  checkpointId: string;
  restoreFiles: boolean;
  truncateConversation: boolean;
}

/** agent/rewind's answer; agent.revert answers restored and conflicts too. */
export interface RewindResult {
  restored: Array<{ path: string; action: string }>;
  conflicts: Array<{ path: string; reason: string }>;
  droppedMessages?: number;
  droppedCheckpoints?: number;
}
