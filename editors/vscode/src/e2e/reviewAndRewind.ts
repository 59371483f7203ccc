// The protocol test's third daemon: a hunk review and a rewind.

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkpointItems, rewindOptionItems, rewindParams, rewindSummary } from '../logic/checkpoints';
import { check, config } from './config';
import { Daemon } from './daemon';
import { Document } from './document';

/**
 * reviewAndRewind runs a daemon for a client declaring agentReview: an
 * edit with three hunks is answered as the review UI answers it (keep
 * config.reviewKeep, feedback), then "agent-lsp: Rewind…" puts the file back.
 */
export async function reviewAndRewind(): Promise<Record<string, unknown>> {
  const file = path.join(config.root, config.reviewFile);
  const doc = new Document(pathToFileURL(file).href, file, config.reviewOriginal);
  const c = new Daemon(doc, true);
  await c.initialize();
  const sessionId = await c.agent.newSession('vscode review');
  const reviewed = await c.prompt(config.reviewPrompt, sessionId);
  check(reviewed.result.stopReason === 'end_turn', `review prompt: ${reviewed.result.stopReason} (${reviewed.result.error ?? ''})`);
  check(c.popups.length === 0 && c.approvals.length === 0, `a review client got ${c.popups.length} popups and ${c.approvals.length} agent/approve for its edit`);
  check(c.reviews.length === 1, `${c.reviews.length} agent/review requests`);
  const r = c.reviews[0];
  check(r?.params.sessionId === sessionId && r.params.toolCallId === config.reviewToolCallId && r.params.path === config.reviewFile &&
    r.params.uri === doc.uri && r.params.tool === 'edit_file' && r.params.hunks.length === 3, `review params ${JSON.stringify(r?.params)}`);
  check(r?.proposed === config.reviewProposed, `the diff's right side ${JSON.stringify(r?.proposed)} (${r?.error ?? ''})`);
  check(r?.kept === config.reviewExpected, `the kept hunks make ${JSON.stringify(r?.kept)}`);
  check(JSON.stringify(r?.answer) === JSON.stringify({ decision: 'partial', acceptedHunks: config.reviewKeep, feedback: config.reviewFeedback }),
    `review answer ${JSON.stringify(r?.answer)}`);
  check(doc.text === config.reviewExpected, `document after the review ${JSON.stringify(doc.text)}`);
  check(c.applyEdits.length === 1, `${c.applyEdits.length} applyEdits after the review`);
  const result = c.updates.find((u) => u.kind === 'tool_result' && u.toolCallId === config.reviewToolCallId);
  check(result?.kind === 'tool_result' && result.status === 'completed' && result.output.includes('NOT applied: hunk 2') &&
    result.output.includes(`User feedback: ${config.reviewFeedback}`), `review tool_result ${JSON.stringify(result)}`);
  const afterReview = doc.text;

  // agent-lsp: Rewind…: the newest checkpoint, both options as the pick offers them.
  const checkpoints = await c.agent.checkpoints(sessionId);
  check(checkpoints.length === 1 && JSON.stringify(checkpoints[0].files) === JSON.stringify([config.reviewFile]) &&
    checkpoints[0].prompt === config.reviewPrompt, `checkpoints ${JSON.stringify(checkpoints)}`);
  const point = checkpointItems(checkpoints)[0];
  const params = rewindParams(sessionId, point.checkpointId, rewindOptionItems().filter((o) => o.picked).map((o) => o.option));
  check(params?.restoreFiles === true && params.truncateConversation === true, `rewind params ${JSON.stringify(params)}`);
  const rewound = params ? await c.agent.rewind(params) : undefined;
  check(JSON.stringify(rewound?.restored) === JSON.stringify([{ path: config.reviewFile, action: 'restored' }]) &&
    rewound?.conflicts.length === 0 && (rewound.droppedMessages ?? 0) > 0 && rewound.droppedCheckpoints === 1, `rewind ${JSON.stringify(rewound)}`);
  check(doc.text === config.reviewOriginal, `document after the rewind ${JSON.stringify(doc.text)}`);
  check(c.applyEdits.length === 2 && JSON.stringify(c.applyEdits[1]).includes('"label":"agent: rewind'), `rewind applyEdit ${JSON.stringify(c.applyEdits[1])}`);
  check((await c.agent.checkpoints(sessionId)).length === 0, 'checkpoints left after the rewind');
  const exit = await c.shutdown();
  check(exit.code === 0, `daemon C exit ${JSON.stringify(exit)}`);
  return {
    hunks: r?.params.hunks.map((h) => ({ id: h.id, startLine: h.startLine, endLine: h.endLine })),
    answer: r?.answer, toolResult: result?.kind === 'tool_result' ? result.output : undefined, afterReview,
    afterRewind: doc.text, rewindMessage: rewound ? rewindSummary(rewound).message : undefined,
  };
}
