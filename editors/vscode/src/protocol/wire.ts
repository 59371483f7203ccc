// WireTypes: every agent/* message, by method, as this extension types
// it: its params and, for a request, its result (for agent/approve and
// agent/review, the extension's answer). The daemon's Go types write one
// golden file per message (lsp/testdata/wire, docs/protocol.md "Wire
// types"); src/test/wire.test.ts type-checks each of them against this
// map with the TypeScript compiler, so a field renamed, added or dropped
// on either side fails the unit tests, with no editor running.

import type { CompletionStatus } from '../logic/inline';
import type { ApproveAnswer, ApproveParams, ReviewAnswer, ReviewParams } from './approvals';
import type { CheckpointsResult, RewindParams, RewindResult } from './checkpoints';
import type { McpStatusResult, McpTrustParams } from './mcp';
import type { PermissionsParams, PermissionsResult } from './permissions';
import type { SubagentsResult, SubagentTrustParams } from './subagents';
import type { CommandsResult, CurrentModel, ModelsParams, ModelsResult, SetModelParams } from './models';
import type {
  CancelParams,
  CompactParams,
  CompactResult,
  ModeResult,
  NewSessionParams,
  NewSessionResult,
  NoParams,
  PromptParams,
  PromptResult,
  SessionParams,
  SessionsResult,
  SessionState,
  SetModeParams,
  ToolsResult,
  WorktreeParams,
  WorktreeResult,
} from './session';
import type { QueueParams, QueueResult } from './queue';
import type { TranscriptParams, TranscriptResult, Update } from './updates';

export interface WireTypes {
  // The editor's requests and notifications.
  'agent/newSession': { params: NewSessionParams; result: NewSessionResult };
  'agent/prompt': { params: PromptParams; result: PromptResult };
  'agent/sessions': { params: NoParams; result: SessionsResult };
  'agent/tools': { params: NoParams; result: ToolsResult };
  'agent/cancel': { params: CancelParams };
  'agent/queue': { params: QueueParams; result: QueueResult };
  'agent/compact': { params: CompactParams; result: CompactResult };
  'agent/mcpStatus': { params: NoParams; result: McpStatusResult };
  'agent/mcpTrust': { params: McpTrustParams; result: McpStatusResult };
  'agent/subagents': { params: NoParams; result: SubagentsResult };
  'agent/subagentTrust': { params: SubagentTrustParams; result: SubagentsResult };
  'agent/setMode': { params: SetModeParams; result: ModeResult };
  'agent/setModel': { params: SetModelParams; result: CurrentModel };
  'agent/models': { params: ModelsParams; result: ModelsResult };
  'agent/commands': { params: NoParams; result: CommandsResult };
  'agent/session': { params: SessionParams; result: SessionState };
  'agent/transcript': { params: TranscriptParams; result: TranscriptResult };
  'agent/checkpoints': { params: SessionParams; result: CheckpointsResult };
  'agent/rewind': { params: RewindParams; result: RewindResult };
  'agent/worktree': { params: WorktreeParams; result: WorktreeResult };
  'agent/permissions': { params: PermissionsParams; result: PermissionsResult };
  // The daemon's notifications and requests.
  'agent/update': { params: Update };
  'agent/approve': { params: ApproveParams; result: ApproveAnswer };
  'agent/review': { params: ReviewParams; result: ReviewAnswer };
  'agent/completionStatus': { params: CompletionStatus };
}
