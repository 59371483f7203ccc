// The extension's entry point: wiring of the daemon, the session, the chat
// view and its completion, the plan view, approvals, hunk review, the
// status bar and the commands.

import * as vscode from 'vscode';
import { ApprovalUi, ProposedTexts, proposedScheme, showMessageRequest } from './approvals';
import { subagentScheme } from './queueUi';
import { ChatView, chatViewId } from './chatView';
import { Daemon, currentSettings, readCurrentSettings } from './daemon';
import { Session } from './session';
import { ChatCompletion } from './chatCompletion';
import { PlanView } from './planView';
import { modes } from './protocol';
import { ReviewUi } from './review';
import { applyCodeBlock } from './applyCode';
import { rewind } from './rewind';
import { raiseSpendCap } from './spendCap';
import { managePermissions } from './permissions';
import { InlineAnswers, inlineEdit } from './inlineAsk';
import { FolderNotices, apiKeyVariable, completionOptions, needsRestart, secretKey } from './logic/settings';
import { restrictedBanner, trustedNotice } from './logic/trust';
import { isCurrent, modeDescriptions, presetDescription, presetDetail } from './logic/models';
import { ShownError } from './mistakeUi';

let daemon: Daemon | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('agent-lsp', { log: true });
  const statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
  statusItem.command = 'agentLsp.showChat';
  statusItem.show();

  const texts = new ProposedTexts();
  const approvals = new ApprovalUi(texts, () => void session.cancel());
  const reviews = new ReviewUi(texts);
  const session: Session = new Session(context, () => d, statusItem);
  const answers = new InlineAnswers(session);
  const d: Daemon = new Daemon(context, output, {
    onUpdate: (u) => {
      reviews.onUpdate(u);
      session.onUpdate(u);
      answers.changed();
    },
    decideApproval: (params) => approvals.decide(params),
    showMessageRequest,
    review: (params, token) => reviews.review(params, token),
    onAvailability: (down) => session.setDown(down),
    onCompletionStatus: (s) => session.noteCompletion(s),
  }, () => session.id);
  daemon = d;

  const completion = new ChatCompletion(() => d);
  const view = new ChatView(context.extensionUri, session.transcript, {
    prompt: (text, steer, images) => void session.send(text, steer, images),
    cancel: () => void session.cancel(),
    queueAction: (action, id) => void session.queueAction(action, id),
    childTranscript: (toolCallId) => void session.childTranscript(toolCallId).catch((err: unknown) =>
      void vscode.window.showErrorMessage(`agent-lsp: ${err instanceof Error ? err.message : String(err)}`)),
    complete: (text, cursor) => completion.complete(text, cursor),
    apply: (code) => applyCodeBlock(code, reviews),
  });
  session.view = view;
  const plan = new PlanView();
  session.plan = plan;

  // A session from before (a window reload, a new window on the
  // workspace): start the daemon now, so the chat redraws the conversation
  // (Session.setDown → restore) before the user types into it.
  // Inline completion configured: the daemon is the ghost text's provider,
  // so it starts with the window (onStartupFinished), not at the first prompt.
  if (session.id || completionOptions(currentSettings().completion)) void d.agent().catch(() => undefined);

  // Restricted mode (an untrusted folder): the daemon is a read-only
  // agent (initializationOptions.workspaceTrust); the chat says so first.
  if (!vscode.workspace.isTrusted) session.banner(restrictedBanner);
  const notices = new FolderNotices();
  const noticeIgnored = (ignored: string[]): void => {
    const notice = notices.next(ignored);
    if (notice) {
      void vscode.window.showWarningMessage(notice, 'Open User Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'agentLsp');
      });
    }
  };
  const read = readCurrentSettings();
  noticeIgnored(read.ignored);
  let settings = read.settings;
  const command = (id: string, run: () => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await run();
      } catch (err) {
        if (err instanceof ShownError) return; // told once, with its fix, where it happened
        void vscode.window.showErrorMessage(`agent-lsp: ${err instanceof Error ? err.message : String(err)}`);
      }
    });

  context.subscriptions.push(
    output,
    statusItem,
    d,
    completion,
    reviews,
    reviews.register(),
    plan,
    plan.register(),
    vscode.window.registerWebviewViewProvider(chatViewId, view, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.workspace.registerTextDocumentContentProvider(proposedScheme, texts),
    vscode.workspace.registerTextDocumentContentProvider(subagentScheme, session.subagentDocs),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === subagentScheme) session.subagentDocs.forget(d.uri);
    }),
    command('agentLsp.showChat', () => view.reveal()),
    command('agentLsp.ask', async () => {
      const prompt = await vscode.window.showInputBox({ prompt: 'Ask agent-lsp', placeHolder: 'What should the agent do?' });
      if (!prompt) return;
      await view.reveal();
      await session.ask(prompt);
    }),
    answers,
    command('agentLsp.inlineEdit', () => inlineEdit(session, answers)),
    command('agentLsp.inlineCancel', () => session.cancel()),
    command('agentLsp.inlineDismiss', () => answers.dismiss()),
    command('agentLsp.cancel', () => session.cancel()),
    command('agentLsp.newSession', () => session.resume(undefined)),
    command('agentLsp.sessions', () => pickSession(d, session)),
    command('agentLsp.tools', () => showTools(d)),
    command('agentLsp.setMode', () => pickMode(d, session)),
    command('agentLsp.switchModel', () => pickModel(d, session)),
    command('agentLsp.rewind', () => rewind(d, session)),
    command('agentLsp.raiseSpendCap', () => raiseSpendCap(view, session)),
    command('agentLsp.permissions', () => managePermissions(d)),
    command('agentLsp.setApiKey', async () => {
      if (await setApiKey(context, d)) await session.keySet();
    }),
    command('agentLsp.clearApiKey', async () => {
      const variable = apiKeyVariable(currentSettings(), process.env);
      if (variable) await context.secrets.delete(secretKey(variable));
      void vscode.window.showInformationMessage(`agent-lsp: the stored key for ${variable ?? 'the model'} was removed.`);
      await d.restart();
    }),
    command('agentLsp.restart', () => d.restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('agentLsp')) return;
      // A folder's value of a user-only setting is not in next: writing
      // .vscode/settings.json never restarts the daemon into it.
      const { settings: next, ignored } = readCurrentSettings();
      noticeIgnored(ignored);
      if (needsRestart(settings, next)) void d.restart().catch(() => undefined);
      settings = next;
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      session.banner(undefined);
      session.notice(trustedNotice);
      void d.restart().catch(() => undefined);
    }),
  );
}

export async function deactivate(): Promise<void> {
  await daemon?.stop();
}

async function pickSession(d: Daemon, session: Session): Promise<void> {
  const { agent } = await d.agent();
  const sessions = await agent.sessions();
  type Item = vscode.QuickPickItem & { id?: string };
  const items: Item[] = [
    { label: '$(add) New session', id: undefined },
    ...sessions.map((s) => ({
      label: (s.sessionId === session.id ? '$(check) ' : '') + (s.title || '(untitled)'),
      description: new Date(s.updatedAt).toLocaleString(),
      detail: s.sessionId,
      id: s.sessionId,
    })),
  ];
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Resume an agent-lsp session', matchOnDetail: true });
  if (!pick) return;
  await session.resume(pick.id);
}

async function showTools(d: Daemon): Promise<void> {
  const { agent } = await d.agent();
  const tools = await agent.tools();
  await vscode.window.showQuickPick(
    tools.map((t) => ({ label: t.name, description: t.source, detail: t.description })),
    { placeHolder: `${tools.length} tools the agent can use`, matchOnDescription: true, matchOnDetail: true },
  );
}

async function pickMode(d: Daemon, session: Session): Promise<void> {
  const current = session.mode;
  const pick = await vscode.window.showQuickPick(
    modes.map((m) => ({ label: (m === current ? '$(check) ' : '') + m, detail: modeDescriptions[m], mode: m })),
    { placeHolder: `The session's mode${current ? ` (now ${current})` : ''}: how much the agent may do on its own` },
  );
  if (!pick) return;
  const id = await session.ensureId();
  const { agent } = await d.agent();
  session.noteMode(await agent.setMode(id, pick.mode));
}

async function pickModel(d: Daemon, session: Session): Promise<void> {
  const { agent } = await d.agent();
  const id = await session.ensureId();
  const { models, current } = await agent.models(id);
  type Item = vscode.QuickPickItem & { preset?: string };
  const items: Item[] = [
    ...models.map((p) => ({
      label: (isCurrent(p, current) ? '$(check) ' : '') + p.id,
      description: presetDescription(p),
      detail: presetDetail(p),
      preset: p.id,
    })),
    { label: '$(edit) Another model of the current provider…' },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    placeHolder: `Switch the session's model${current ? ` (now ${current.model}, ${current.provider})` : ''}; it takes effect at the next request`,
    matchOnDescription: true,
  });
  if (!pick) return;
  if (pick.preset) {
    session.noteModel(await agent.setModel({ sessionId: id, preset: pick.preset }));
    return;
  }
  const model = await vscode.window.showInputBox({ prompt: `Model name on ${current?.provider ?? 'the current provider'}`, value: current?.model ?? '' });
  if (!model?.trim()) return;
  session.noteModel(await agent.setModel({ sessionId: id, model: model.trim() }));
}

/** setApiKey stores a key and restarts the daemon with it; false when none was given. */
async function setApiKey(context: vscode.ExtensionContext, d: Daemon): Promise<boolean> {
  const variable = apiKeyVariable(currentSettings(), process.env);
  if (!variable) {
    void vscode.window.showInformationMessage('agent-lsp: agentLsp.apiKeyEnv is "none": this model needs no key.');
    return false;
  }
  const key = await vscode.window.showInputBox({
    prompt: `API key, passed to agent-lsp as ${variable} (kept in VS Code's secret storage, never in settings)`,
    password: true,
    ignoreFocusOut: true,
  });
  if (!key) return false;
  await context.secrets.store(secretKey(variable), key.trim());
  void vscode.window.setStatusBarMessage(`agent-lsp: key stored for ${variable}; the daemon restarts with it`, 5000);
  await d.restart();
  return true;
}
