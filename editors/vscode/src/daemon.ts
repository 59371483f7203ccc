// The agent-lsp daemon as a vscode-languageclient LanguageClient: start,
// restart after a crash (with a clear message), approvals (agent/approve)
// and hunk review (agent/review), both declared in
// capabilities.experimental, a plain handler for any other
// window/showMessageRequest, saving after applied edits, and the answer
// of the daemon's "Revert agent change" lens (agent.revert) shown, and
// inline completion (inline.ts) with its agent/completionStatus.

import * as vscode from 'vscode';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CancellationToken,
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  type ClientCapabilities,
  type FeatureState,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
} from 'vscode-languageclient/node';
import {
  AgentClient,
  Methods,
  declareAgentRequests,
  type ApproveAnswer,
  type ApproveParams,
  type MessageActionItem,
  type ReviewAnswer,
  type ReviewParams,
  type RewindResult,
  type ShowMessageRequestParams,
  type Update,
} from './protocol';
import { rejectAll } from './logic/review';
import { answerApprove, answerMessageRequest } from './logic/approval';
import { rewindSummary } from './logic/checkpoints';
import { collapseRevertLenses, revertCommand } from './logic/revertLenses';
import { RestartPolicy } from './logic/restartPolicy';
import { daemonEnvironment, hasApiKey, apiKeyVariable, initializationOptions, readSettings, secretKey, type AgentSettings, type SettingsRead } from './logic/settings';
import { editedUris } from './logic/workspaceEdit';
import { folderUserOnlyValues, withFolderValues } from './logic/folderSettings';
import { inlineMiddleware } from './inline';
import type { CompletionStatus } from './logic/inline';
import { isLoopbackUrl, noBinary, noKey, promptMistake } from './logic/mistakes';
import { daemonProgram } from './logic/binaryPath';
import { ShownError, showMistake } from './mistakeUi';

export interface DaemonHooks {
  onUpdate(u: Update): void;
  /** Decides one agent/approve: the chosen option's id (undefined: dismissed, Deny). */
  decideApproval(params: ApproveParams): Promise<string | undefined>;
  /** Shows any other window/showMessageRequest with its buttons: the chosen title. */
  showMessageRequest(params: ShowMessageRequestParams, titles: string[]): Thenable<string | undefined>;
  /** Answers agent/review; token is cancelled when the daemon stops waiting. */
  review(params: ReviewParams, token: CancellationToken): Promise<ReviewAnswer>;
  /** The daemon is down (a reason) or up again (undefined). */
  onAvailability(down: string | undefined): void;
  /** agent/completionStatus: inline completion's model request started, ended or failed. */
  onCompletionStatus(status: CompletionStatus): void;
}

const completionStatusMethod = 'agent/completionStatus';

/** readCurrentSettings is the settings and the folder values it ignored (logic/settings.ts). */
export function readCurrentSettings(): SettingsRead {
  const cfg = vscode.workspace.getConfiguration('agentLsp');
  return readSettings(withFolderValues((k) => cfg.inspect(k), folderUserOnlyValues(folderSettingsTexts())));
}

/** folderSettingsTexts are the texts of the workspace's settings files on disk (logic/folderSettings.ts). */
function folderSettingsTexts(): { text: string; wrapped?: boolean }[] {
  const files: { path: string; wrapped?: boolean }[] = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ path: join(f.uri.fsPath, '.vscode', 'settings.json') }));
  const wsFile = vscode.workspace.workspaceFile;
  if (wsFile?.scheme === 'file') files.push({ path: wsFile.fsPath, wrapped: true });
  const texts: { text: string; wrapped?: boolean }[] = [];
  for (const f of files) {
    try {
      texts.push({ text: readFileSync(f.path, 'utf8'), wrapped: f.wrapped });
    } catch {
      // No such file: the folder sets nothing there.
    }
  }
  return texts;
}

export function currentSettings(): AgentSettings {
  return readCurrentSettings().settings;
}

export class Daemon implements vscode.Disposable {
  private client?: LanguageClient;
  private starting?: Promise<LanguageClient>;
  private readonly policy = new RestartPolicy();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    private readonly hooks: DaemonHooks,
    /** The session to name in the crash message. */
    private readonly sessionLabel: () => string | undefined,
  ) {}

  /** ready starts the daemon when it is not running and returns its client. */
  async ready(): Promise<LanguageClient> {
    const client = this.client;
    if (client && client.state === State.Running) return client;
    if (client && client.state === State.Starting && !this.starting) {
      // The client is restarting the daemon after a crash: wait for it.
      if (await runningWithin(client, 30_000)) return client;
    }
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** agent is the agent/* requests over the running daemon. */
  async agent(): Promise<{ client: LanguageClient; agent: AgentClient }> {
    const client = await this.ready();
    const agent = new AgentClient({
      sendRequest: <R>(method: string, params: unknown) => client.sendRequest<R>(method, params),
      sendNotification: (method: string, params: unknown) => client.sendNotification(method, params),
    });
    return { client, agent };
  }

  async restart(): Promise<void> {
    // A start under way (a settings change) read the key and settings
    // before this restart's reason: let it end, then start afresh.
    await this.starting?.catch(() => undefined);
    await this.stop();
    this.policy.reset();
    await this.ready();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
    if (client) {
      try {
        await client.stop(2000);
      } catch (err) {
        this.output.appendLine(`stopping agent-lsp: ${String(err)}`);
      }
    }
  }

  dispose(): void {
    void this.stop();
  }

  private async start(): Promise<LanguageClient> {
    await this.stop();
    const settings = currentSettings();
    const variable = apiKeyVariable(settings, process.env);
    const stored = variable ? await this.context.secrets.get(secretKey(variable)) : undefined;
    // A missing binary is told here, once, with its fix: languageclient's
    // own start failure is a toast of its own we cannot turn off, then a
    // stack trace in the log.
    const program = daemonProgram(settings.path, this.context.extensionPath, process.env, isExecutable);
    if (!program) {
      this.hooks.onAvailability('not installed');
      const mistake = noBinary(settings.path);
      showMistake(mistake);
      throw new ShownError(mistake);
    }
    // A server on this machine (Ollama, llama.cpp) needs no key: the daemon asks none for it.
    if (variable && !hasApiKey(settings, process.env, stored) && !isLoopbackUrl(settings.baseUrl)) showMistake(noKey(variable), 'warning');
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const serverOptions: ServerOptions = {
      command: program,
      args: [],
      options: { env: daemonEnvironment(process.env, settings, stored), ...(cwd ? { cwd } : {}) },
    };
    const clientOptions: LanguageClientOptions = {
      // Every file document is synchronised: the agent reads the buffers
      // (unsaved changes included) of whatever it is asked about.
      documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
      initializationOptions: () => initializationOptions(currentSettings(), vscode.workspace.isTrusted),
      outputChannel: this.output,
      errorHandler: {
        // The log has the details; languageclient's toasts would repeat them.
        error: (_err, _msg, count) => ({ action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
        closed: () => this.onClosed(),
      },
      middleware: {
        ...inlineMiddleware(() => this.client, (m) => this.output.appendLine(m)),
        // One "Revert agent change" lens per file and session, not one per
        // hunk (logic/revertLenses.ts).
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          if (!lenses) return lenses;
          return collapseRevertLenses<vscode.Range, vscode.CodeLens>(lenses, (range, title, args) => new vscode.CodeLens(range, { title, command: revertCommand, arguments: [args] }));
        },
        // The server's commands (agent.ask, agent.cancel, agent.revert)
        // are registered by languageclient and sent as
        // workspace/executeCommand; the lens's revert says what it did.
        executeCommand: async (command, args, next) => {
          const result: unknown = await next(command, args);
          if (command === 'agent.revert' && result && typeof result === 'object') {
            const { message, warning } = rewindSummary(result as RewindResult);
            if (warning) void vscode.window.showWarningMessage(`agent-lsp: ${message}`);
            else void vscode.window.showInformationMessage(`agent-lsp: ${message}`);
          }
          return result;
        },
        workspace: {
          handleApplyEdit: async (params, next) => {
            const result = await next(params, CancellationToken.None);
            if (!(result instanceof Error) && result.applied && currentSettings().autoSave) {
              await saveDocuments(editedUris(params.edit), this.output);
            }
            return result;
          },
        },
      },
    };
    const client = new LanguageClient('agentLsp', 'agent-lsp', serverOptions, clientOptions);
    client.onNotification(Methods.update, (u: Update) => this.hooks.onUpdate(u));
    // window/showMessage: a first-hour mistake (the daemon's no-key
    // warning) is shown once with its fix, not next to ours as text.
    client.onNotification('window/showMessage', (m: { type: number; message: string }) => this.showMessage(m));
    client.onNotification(completionStatusMethod, (s: CompletionStatus) => this.hooks.onCompletionStatus(s));
    // Approvals come as agent/approve (AgentRequestsFeature declares it);
    // the popup is only ever another question (workspace trust), shown as
    // it is. A failure answering is Deny, as the daemon takes an error.
    client.onRequest(Methods.showMessageRequest, (params: ShowMessageRequestParams): Promise<MessageActionItem | null> =>
      answerMessageRequest(params, (p, titles) => Promise.resolve(this.hooks.showMessageRequest(p, titles))),
    );
    client.registerFeature(new AgentRequestsFeature());
    client.onRequest(Methods.approve, async (params: ApproveParams): Promise<ApproveAnswer | null> => {
      try {
        return await answerApprove(params, (p) => this.hooks.decideApproval(p));
      } catch (err) {
        this.output.appendLine(`agent/approve: ${String(err)}`);
        return null;
      }
    });
    client.onRequest(Methods.review, async (params: ReviewParams, token: CancellationToken): Promise<ReviewAnswer> => {
      try {
        return await this.hooks.review(params, token);
      } catch (err) {
        this.output.appendLine(`agent/review: ${String(err)}`);
        return rejectAll;
      }
    });
    this.disposables.push(
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) this.hooks.onAvailability(undefined);
        else if (e.newState === State.Starting) this.hooks.onAvailability('starting');
        else this.hooks.onAvailability('stopped');
      }),
    );
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      this.client = undefined;
      this.hooks.onAvailability('not running');
      const msg = `agent-lsp could not start (${settings.path}): ${err instanceof Error ? err.message : String(err)}`;
      void vscode.window.showErrorMessage(msg, 'Open Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'agentLsp.path');
      });
      throw new Error(msg);
    }
    return client;
  }

  private showMessage(m: { type: number; message: string }): void {
    const mistake = promptMistake(m.message.replace(/^agent-lsp: /, ''));
    if (mistake.kind !== 'other') {
      showMistake(mistake, m.type === 1 ? 'error' : 'warning');
      return;
    }
    if (m.type === 1) void vscode.window.showErrorMessage(m.message);
    else if (m.type === 2) void vscode.window.showWarningMessage(m.message);
    else if (m.type === 3) void vscode.window.showInformationMessage(m.message);
    else this.output.appendLine(m.message);
  }

  private onClosed(): { action: CloseAction; message?: string; handled?: boolean } {
    const session = this.sessionLabel();
    const resume = session ? ` The conversation resumes in session ${session} from its last complete round.` : '';
    if (this.policy.onCrash(Date.now())) {
      void vscode.window.showWarningMessage(`agent-lsp stopped unexpectedly and is being restarted.${resume}`, 'Show Log').then((pick) => {
        if (pick) this.output.show(true);
      });
      return { action: CloseAction.Restart, handled: true };
    }
    return {
      action: CloseAction.DoNotRestart,
      message: `agent-lsp crashed ${this.policy.recentCrashes} times in 3 minutes and is left stopped; see the "agent-lsp" output. "agent-lsp: Restart Daemon" starts it again.${resume}`,
    };
  }
}

/** Declares experimental.agentReview and agentApprove: edits come as agent/review, other approvals as agent/approve. */
class AgentRequestsFeature implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    declareAgentRequests(capabilities);
  }

  initialize(): void {}

  getState(): FeatureState {
    return { kind: 'static' };
  }

  clear(): void {}
}

async function saveDocuments(uris: string[], output: vscode.LogOutputChannel): Promise<void> {
  for (const uri of uris) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === vscode.Uri.parse(uri).toString());
    if (doc && doc.isDirty && !(await doc.save())) output.appendLine(`autoSave: could not save ${uri}`);
  }
}

/** isExecutable says whether path is a file this process may run. */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** runningWithin waits until the client is running; false when it stopped or the time ran out. */
function runningWithin(client: LanguageClient, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const sub = client.onDidChangeState((e) => {
      if (e.newState === State.Running) done(true);
      else if (e.newState === State.Stopped) done(false);
    });
    function done(ok: boolean): void {
      clearTimeout(timer);
      sub.dispose();
      resolve(ok);
    }
    if (client.state === State.Running) done(true);
  });
}
