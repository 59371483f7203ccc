// The wire types of approvals and review: the approval popup
// (window/showMessageRequest), agent/approve, agent/review, and the
// capabilities a client declares to get the latter two.

export interface MessageActionItem {
  title: string;
}

export interface ShowMessageRequestParams {
  type: number;
  message: string;
  actions?: MessageActionItem[];
}

/** The kinds (and ids) of agent/approve's options (docs/protocol.md, Structured approval). */
export type ApproveOptionKind = 'allow_once' | 'allow_session' | 'deny';

/** One answer agent/approve offers: the button's title and what it does. */
export interface ApproveOption {
  id: string;
  title: string;
  kind: ApproveOptionKind;
}

/** agent/approve's params: an action the policy asks a person about. */
export interface ApproveParams {
  sessionId: string;
  toolCallId: string;
  tool: string;
  /** low, medium or high. */
  risk: string;
  reasons: string[];
  summary: string;
  /** run_bash's command, exactly what runs. */
  command?: string;
  /** The command as shown: control, bidi and zero-width characters written visibly (\r, \x1b, <U+202E>). */
  visibleCommand?: string;
  /** The file the action touches, relative to the workspace, and its URI. */
  path?: string;
  uri?: string;
  /** An edit's change, as in agent/review. */
  hunks?: ReviewHunk[];
  options: ApproveOption[];
  /** Set when a subagent asks: the id of the task call that started it. */
  parentToolCallId?: string;
}

/** The answer to agent/approve: an offered option's id (null: Deny). */
export interface ApproveAnswer {
  optionId: string;
}

/** One hunk of an agent/review: lines 0-based, endLine exclusive, of the text the agent read. */
export interface ReviewHunk {
  id: number;
  startLine: number;
  endLine: number;
  oldText: string;
  newText: string;
  /** The hunk as a unified diff hunk (with context), for display. */
  diff: string;
}

/** agent/review's params: an edit proposal, hunk by hunk (docs/protocol.md, Hunk review). */
export interface ReviewParams {
  sessionId: string;
  toolCallId: string;
  tool: string;
  summary: string;
  /** Relative to the workspace. */
  path: string;
  uri: string;
  risk: string;
  reasons?: string[];
  hunks: ReviewHunk[];
}

export type ReviewDecision = 'accept' | 'reject' | 'partial';

/** The answer to agent/review. */
export interface ReviewAnswer {
  decision: ReviewDecision;
  acceptedHunks?: number[];
  feedback?: string;
}

/**
 * declareAgentRequests adds experimental.agentReview and agentApprove to
 * the client's capabilities, keeping what is there: the daemon then sends
 * agent/review for edits and agent/approve for every other approval,
 * never the approval popup.
 */
export function declareAgentRequests(capabilities: { experimental?: unknown }): void {
  const experimental = capabilities.experimental;
  capabilities.experimental = {
    ...(experimental !== null && typeof experimental === 'object' ? (experimental as Record<string, unknown>) : {}),
    agentReview: true,
    agentApprove: true,
  };
}
