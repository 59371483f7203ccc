// The running spend against the spend caps (initializationOptions.spendLimit),
// on round_end and compacted updates; absent when no cap is set.

/** A cap that is absent is no cap. */
export interface Spend {
  sessionUsd: number;
  sessionCapUsd?: number;
  dayUsd: number;
  dayCapUsd?: number;
  workspaceDayUsd: number;
  workspaceDayCapUsd?: number;
  sessionTokens: number;
  tokenCap?: number;
  /** Lines to show once: a cap's share crossed, a dollar cap that cannot hold (a model without a price). */
  warnings?: string[];
}
