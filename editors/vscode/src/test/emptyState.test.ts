import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage } from '../logic/render';

test('the chat page has an empty state with an example prompt, hidden once the transcript has an entry', () => {
  const page = renderPage({ nonce: 'n', cspSource: '', transcriptHtml: '' });
  const empty = /<div id="empty">(.*?)<\/div>/s.exec(page)?.[1] ?? '';
  assert.match(empty, /Ask the agent/);
  assert.match(empty, /Try: <q>[^<]+<\/q>/);
  assert.ok(page.indexOf('id="empty"') < page.indexOf('id="transcript"'), 'the empty state is above the transcript');
  assert.match(page, /body:has\(#transcript \.entry\) #empty \{ display: none; \}/);
});

test('package.json: the chat has its own activity-bar container and a key, the Plan view shows only with a plan', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const c = pkg.contributes;
  assert.deepEqual(c.viewsContainers.activitybar, [{ id: 'agentLsp', title: 'agent-lsp', icon: 'media/agent.svg' }]);
  assert.equal(c.viewsContainers.panel, undefined);
  const plan = c.views.agentLsp.find((v: { id: string }) => v.id === 'agentLsp.plan');
  assert.equal(plan.when, 'agentLsp.hasPlan');
  const key = c.keybindings.find((k: { command: string }) => k.command === 'agentLsp.showChat');
  assert.deepEqual([key.key, key.mac], ['ctrl+alt+a', 'cmd+alt+a']);
  // Not VS Code's own chat keys, nor another of ours.
  const taken = ['ctrl+alt+i', 'ctrl+shift+alt+i', 'ctrl+l', ...c.keybindings.filter((k: { command: string }) => k !== key).map((k: { key: string }) => k.key)];
  assert.ok(!taken.includes(key.key), key.key);
});
