// The schema tap must turn what a wrong agent sends into violations: an SDK
// agent (in process) answers initialize with a result missing a required
// field and sends a session/update the schema rejects; a right one passes.
import assert from 'node:assert/strict';
import test from 'node:test';
import { acp, tap, violations } from './lib.mjs';

const { methods } = acp;

// pair connects a client and an agent through the tap, as a child's stdio would.
function pair() {
  const toAgent = new TransformStream();
  const toClient = new TransformStream();
  const clientSide = tap({ readable: toClient.readable, writable: toAgent.writable });
  return { clientSide, agentSide: { readable: toAgent.readable, writable: toClient.writable } };
}

async function drive(agentApp) {
  violations.length = 0;
  const { clientSide, agentSide } = pair();
  agentApp.connect(agentSide);
  const seen = [];
  await acp.client({ name: 'tap-test' })
    .onNotification(methods.client.session.update, ({ params }) => { seen.push(params); })
    .connectWith(clientSide, async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      await ctx.request(methods.agent.session.new, { cwd: '/tmp', mcpServers: [] });
      // Let the notification the agent sent before answering arrive.
      await new Promise((r) => setImmediate(r));
    });
  return [...violations];
}

test('a conforming agent leaves no violation', async () => {
  const got = await drive(acp.agent({ name: 'good' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, async ({ client }) => {
      await client.notify(methods.client.session.update, { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } });
      return { sessionId: 's1' };
    }));
  assert.deepEqual(got, []);
});

test('a wrong result and a wrong update are violations', async () => {
  const got = await drive(acp.agent({ name: 'bad' })
    .onRequest(methods.agent.initialize, () => ({ agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, async ({ client }) => {
      await client.notify(methods.client.session.update, { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', status: 'done' } });
      return { sessionId: 's1' };
    }));
  assert.ok(got.some((v) => v.startsWith("agent's initialize result fails the schema: protocolVersion")), got.join('\n'));
  assert.ok(got.some((v) => v.startsWith("agent's session/update fails the schema")), got.join('\n'));
  // The SDK itself rejected the update too, and said so.
  assert.ok(got.some((v) => v.startsWith('sdk: Error handling notification')), got.join('\n'));
});

test('an agent request the SDK rejects is a violation', async () => {
  const got = await drive(acp.agent({ name: 'bad-request' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, async ({ client }) => {
      await client.request(methods.client.fs.readTextFile, { path: 'relative.txt' }).catch(() => {});
      return { sessionId: 's1' };
    }));
  assert.ok(got.some((v) => v.startsWith("client answered the agent's fs/read_text_file (id 0) with error -326")), got.join('\n'));
});
