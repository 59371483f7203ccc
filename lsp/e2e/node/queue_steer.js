// A real LSP client written by others (vscode-jsonrpc, as VS Code uses it)
// that queues and steers: while a tool call waits for its agent/approve
// answer, it sends a steer message and a queued prompt, edits the queued
// one through agent/queue, and only then allows the call; then it cancels
// two more prompts with a queued prompt behind each, once keeping the
// queue and once dropping it (agent/cancel's dropQueue).
//
//   node queue_steer.js <config.json>
//
// The script prints one JSON summary on stdout and exits non-zero when any
// check failed. The Go test checks the model's recorded requests.
'use strict';

const { run, config, failures, check, startDaemon, stopDaemon, openDocument, configDocument } = require('./client.js');

async function main() {
  const daemon = startDaemon();
  const { conn } = daemon;
  const doc = configDocument();

  const updates = [];
  const waiters = [];
  conn.onNotification('agent/update', (u) => {
    updates.push(u);
    for (const w of waiters.slice()) {
      if (w.pred(u)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(u);
      }
    }
  });
  // update resolves with the first agent/update (from now on) matching pred.
  const update = (pred) => new Promise((resolve) => waiters.push({ pred, resolve }));
  const queueOf = (...prompts) => (u) =>
    u.kind === 'queue' && JSON.stringify(u.items.map((i) => i.prompt)) === JSON.stringify(prompts);

  let sessionId;
  const asked = {};
  const askedPromise = (id) => new Promise((resolve) => { asked[id] = resolve; });
  const steps = { call_c: askedPromise('call_c'), call_e: askedPromise('call_e') };
  const answers = {};
  conn.onRequest('agent/approve', async (params, token) => {
    if (params.toolCallId === 'call_a') {
      // The tool call waits while the editor steers, queues and edits.
      answers.steer = conn.sendRequest('agent/prompt', { sessionId, prompt: config.steer, delivery: 'steer' });
      await update(queueOf(config.steer));
      answers.queued = conn.sendRequest('agent/prompt', { sessionId, prompt: 'queued, unedited', delivery: 'queue' });
      const listed = await update(queueOf(config.steer, 'queued, unedited'));
      answers.listed = listed.items;
      answers.edited = await conn.sendRequest('agent/queue',
        { sessionId, edit: listed.items[1].id, prompt: config.queued });
      return { optionId: 'allow_once' };
    }
    // The calls of the prompts to be cancelled wait until they are.
    asked[params.toolCallId]();
    await new Promise((resolve) => token.onCancellationRequested(resolve));
    return null;
  });
  conn.listen();

  await openDocument(conn, doc, 'vscode-jsonrpc e2e queue', 'go', {
    window: { workDoneProgress: false },
    experimental: { agentApprove: true },
  });
  ({ sessionId } = await conn.sendRequest('agent/newSession', {}));

  const first = await conn.sendRequest('agent/prompt', { sessionId, prompt: 'Run it.' });
  const steer = await answers.steer;
  const queued = await answers.queued;

  // agent/cancel without dropQueue: the queued prompt runs next.
  const keep = conn.sendRequest('agent/prompt', { sessionId, prompt: 'Cancel me.' });
  await steps.call_c;
  const kept = conn.sendRequest('agent/prompt', { sessionId, prompt: 'Keep me.', delivery: 'queue' });
  await update(queueOf('Keep me.'));
  await conn.sendNotification('agent/cancel', { sessionId });
  const keepResult = await keep;
  const keptResult = await kept;

  // agent/cancel with dropQueue: the queued prompt is removed.
  const drop = conn.sendRequest('agent/prompt', { sessionId, prompt: 'Cancel me too.' });
  await steps.call_e;
  const dropped = conn.sendRequest('agent/prompt', { sessionId, prompt: 'Drop me.', delivery: 'queue' });
  await update(queueOf('Drop me.'));
  await conn.sendNotification('agent/cancel', { sessionId, dropQueue: true });
  const dropResult = await drop;
  const droppedResult = await dropped;

  const exit = await stopDaemon(daemon);

  check(first.stopReason === 'end_turn' && first.text === 'Steered.', `first ${JSON.stringify(first)}`);
  check(steer.stopReason === 'steered' && steer.text === '' && steer.usage.promptTokens === 0, `steer ${JSON.stringify(steer)}`);
  check(queued.stopReason === 'end_turn' && queued.text === 'Queued ran.', `queued ${JSON.stringify(queued)}`);
  check(answers.listed[0].delivery === 'steer' && answers.listed[1].delivery === 'queue', `listed ${JSON.stringify(answers.listed)}`);
  check(answers.edited.items.length === 2 && answers.edited.items[1].prompt === config.queued, `edited ${JSON.stringify(answers.edited)}`);
  check(keepResult.stopReason === 'cancelled', `cancelled ${JSON.stringify(keepResult)}`);
  check(keptResult.stopReason === 'end_turn' && keptResult.text === 'Kept.', `kept ${JSON.stringify(keptResult)}`);
  check(dropResult.stopReason === 'cancelled', `cancelled too ${JSON.stringify(dropResult)}`);
  check(droppedResult.stopReason === 'cancelled' && droppedResult.notice === 'removed from the queue',
    `dropped ${JSON.stringify(droppedResult)}`);
  const kinds = updates.filter((u) => ['tool_result', 'steer', 'text'].includes(u.kind) && u.seq).map((u) => u.kind);
  check(kinds.slice(0, 3).join(',') === 'tool_result,steer,text', `the first prompt's updates ${kinds}`);
  const steerUpdate = updates.find((u) => u.kind === 'steer');
  check(steerUpdate && steerUpdate.id === answers.listed[0].id && steerUpdate.prompt === config.steer,
    `steer update ${JSON.stringify(steerUpdate)}`);
  check(exit.code === 0, `daemon exit ${JSON.stringify(exit)}`);

  return { ok: failures.length === 0, failures, exit };
}

run(main, config.timeoutMs);
