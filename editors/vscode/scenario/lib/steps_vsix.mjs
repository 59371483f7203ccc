// The extension as a user without a toolchain installs it (issue 25,
// item 8): the linux-x64 .vsix from scripts/release, with the binary
// inside, in a VS Code whose PATH has no agent-lsp and no go and whose
// settings do not name agentLsp.path (the Go test checks both). The chat
// answers a prompt: the bundled binary is the daemon.

import { waitFor } from './ui.mjs';

/** lastText is the text of the chat's last model-text entry. */
function lastText(entries) {
  return [...entries].reverse().find((e) => e.cls === 'text')?.text ?? '';
}

export const vsixSteps = [
  ['open', async (ui, cfg, url) => {
    await ui.page.goto(`${url}/?folder=${encodeURIComponent(cfg.workspace)}`);
    await waitFor('the workbench', () => ui.page.$('.monaco-workbench .part.statusbar'), 60_000);
    await ui.command('agent-lsp: Show Chat');
    await ui.chat();
    await ui.shot('vsix-chat');
  }],

  ['prompt-answered', async (ui, cfg) => {
    await ui.chatPrompt(cfg.prompt);
    let last = [];
    await waitFor(`the answer ${JSON.stringify(cfg.answer)}`, async () => {
      last = await ui.chatEntries();
      return lastText(last) === cfg.answer;
    }, cfg.timeoutMs).catch((err) => {
      throw new Error(`${err.message}; the chat shows ${JSON.stringify(last.map((e) => `${e.cls}: ${e.text.slice(0, 100)}`))}`);
    });
    await waitFor('the prompt to end', async () => (await ui.chatStatus()) === '', cfg.timeoutMs);
    await ui.shot('vsix-answer');
  }],
];
