// The extension's settings (agentLsp.*) and what they become for the
// daemon: its command line, its environment and initializationOptions.
// API keys are never settings: the key comes from the environment or from
// VS Code's secret storage and reaches the daemon only in its environment.

import { modes } from '../protocol';
import { readSpendLimit, type SpendLimit } from './spendSettings';

export interface AgentSettings {
  path: string;
  provider: string;
  model: string;
  baseUrl: string;
  apiKeyEnv: string;
  mcpServers: Record<string, unknown>;
  /** agentLsp.protectedFiles: more protected workspace files (they only add to the daemon's list). */
  protectedFiles: string[];
  autoSave: boolean;
  /** The mode new sessions start in ("": the daemon's, default). */
  mode: string;
  /** agentLsp.completion.*: the inline completion model, off while dialect, baseUrl and model are all empty. */
  completion: CompletionSettings;
  /** agentLsp.spendLimit: the spend caps (a folder may only tighten them; spendSettings.ts). */
  spendLimit?: SpendLimit;
}

export interface CompletionSettings {
  dialect: string;
  baseUrl: string;
  model: string;
  apiKeyEnv: string;
  languages: string[];
  /** undefined: the daemon's default. */
  debounceMs?: number;
  maxTokens?: number;
}

/** initializationOptions.completion (docs/completion.md). */
export interface CompletionOptions {
  dialect?: string;
  baseURL?: string;
  model?: string;
  apiKeyEnv?: string;
  languages?: string[];
  debounceMs?: number;
  maxTokens?: number;
}

/** initializationOptions as docs/protocol.md names them; unset settings are left out so the daemon's own configuration applies. */
export interface InitializationOptions {
  provider?: string;
  model?: string;
  baseURL?: string;
  apiKeyEnv?: string;
  mcpServers?: Record<string, unknown>;
  protectedFiles?: string[];
  mode?: string;
  completion?: CompletionOptions;
  /** "restricted": the folder is not trusted, the daemon is a read-only agent. */
  workspaceTrust?: 'restricted';
  spendLimit?: SpendLimit;
}

/** The daemon's default key variable, for every dialect (provider/config.go). */
export const defaultApiKeyEnv = 'DEEPSEEK_API_KEY';
/** The variable that changes the daemon's default key variable. */
export const apiKeyEnvOverride = 'AGENT_LSP_API_KEY_ENV';

/**
 * The settings that start a program, choose an endpoint or name a key
 * (package.json scopes them "machine"). Their values are taken from the
 * user's settings only: a repository's .vscode/settings.json (workspace or
 * folder values) would otherwise pick the daemon binary, start MCP servers
 * as the user's own, or send the key, and the code, to its server. VS Code
 * enforces the scope, but older versions and some forks do not, and
 * inspect() still shows the folder's values, so this reader does not rely
 * on it. completion.model is here because setting it alone turns inline
 * completion on: every keystroke's text to the completion endpoint.
 */
export const userOnlySettings = [
  'path',
  'provider',
  'baseUrl',
  'apiKeyEnv',
  'mcpServers',
  'protectedFiles',
  'completion.dialect',
  'completion.baseUrl',
  'completion.model',
  'completion.apiKeyEnv',
] as const;

/** What WorkspaceConfiguration.inspect(key) answers (the fields read here). */
export interface Inspected {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  globalLanguageValue?: unknown;
  workspaceLanguageValue?: unknown;
  workspaceFolderLanguageValue?: unknown;
}

export interface SettingsRead {
  settings: AgentSettings;
  /** The user-only settings this folder set and that were ignored, as "agentLsp.<key>". */
  ignored: string[];
}

/**
 * readSettings reads the settings through inspect (a WorkspaceConfiguration's
 * inspect in the extension), keeping defaults for values of the wrong type.
 * The user-only settings come from the user's settings (or the default);
 * a folder's mode is taken only when it is at least as cautious as the
 * user's; the rest as VS Code resolves them (folder over workspace over user).
 */
export function readSettings(inspect: (key: string) => Inspected | undefined): SettingsRead {
  const ignored: string[] = [];
  const userOnly = new Set<string>(userOnlySettings);
  const get = (key: string): unknown => {
    const i = inspect(key) ?? {};
    const user = i.globalValue !== undefined ? i.globalValue : i.defaultValue;
    const folder = [i.workspaceFolderLanguageValue, i.workspaceFolderValue, i.workspaceLanguageValue, i.workspaceValue].find((v) => v !== undefined);
    if (!userOnly.has(key)) return folder !== undefined ? folder : user;
    if (folder !== undefined && JSON.stringify(folder) !== JSON.stringify(user)) ignored.push(`agentLsp.${key}`);
    return user;
  };
  const str = (key: string, def = ''): string => {
    const v = get(key);
    return typeof v === 'string' ? v.trim() : def;
  };
  const servers = get('mcpServers');
  const protectedFiles = get('protectedFiles');
  const autoSave = get('autoSave');
  const settings: AgentSettings = {
    path: str('path') || 'agent-lsp',
    provider: str('provider'),
    model: str('model'),
    baseUrl: str('baseUrl'),
    apiKeyEnv: str('apiKeyEnv'),
    mcpServers: isPlainObject(servers) ? servers : {},
    protectedFiles: Array.isArray(protectedFiles)
      ? protectedFiles.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim())
      : [],
    autoSave: typeof autoSave === 'boolean' ? autoSave : true,
    mode: readMode(inspect('mode') ?? {}),
    completion: readCompletion(get),
  };
  const spendLimit = readSpendLimit(inspect('spendLimit') ?? {});
  if (spendLimit) settings.spendLimit = spendLimit;
  return { settings, ignored };
}

/**
 * readMode is the user's mode, or the folder's when it is at least as
 * cautious: a repository may make the agent ask more, never less (its
 * "auto-edit" would apply the agent's edits without a question).
 */
function readMode(i: Inspected): string {
  const known = (v: unknown): string | undefined => {
    const m = typeof v === 'string' ? v.trim() : undefined;
    return m !== undefined && (modes as readonly string[]).includes(m) ? m : undefined;
  };
  const user = known(i.globalValue) ?? known(i.defaultValue) ?? '';
  const folder = known(i.workspaceFolderValue) ?? known(i.workspaceValue);
  if (folder === undefined) return user;
  return caution(folder) <= caution(user) ? folder : user;
}

/** caution orders the modes from the most cautious (0); "" is the daemon's default mode. */
function caution(mode: string): number {
  return (modes as readonly string[]).indexOf(mode || 'default');
}

/**
 * ignoredNotice is the one notice naming the folder settings that were
 * ignored, or undefined when there are none.
 */
export function ignoredNotice(ignored: readonly string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  if (ignored.length === 1) return `agent-lsp: ${ignored[0]} set by this folder is ignored: set it in your user settings.`;
  const names = `${ignored.slice(0, -1).join(', ')} and ${ignored[ignored.length - 1]}`;
  return `agent-lsp: ${names} set by this folder are ignored: set them in your user settings.`;
}

/**
 * FolderNotices shows the ignored-settings notice once per window: a
 * restart or a settings change shows it again only for a setting it has
 * not named yet.
 */
export class FolderNotices {
  private readonly named = new Set<string>();

  /** next is the notice to show now for ignored, if any. */
  next(ignored: readonly string[]): string | undefined {
    const fresh = ignored.filter((k) => !this.named.has(k));
    for (const k of fresh) this.named.add(k);
    return ignoredNotice(fresh);
  }
}

function readCompletion(get: (key: string) => unknown): CompletionSettings {
  const str = (key: string): string => {
    const v = get(`completion.${key}`);
    return typeof v === 'string' ? v.trim() : '';
  };
  const count = (key: string): number | undefined => {
    const v = get(`completion.${key}`);
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
  };
  const langs = get('completion.languages');
  const c: CompletionSettings = {
    dialect: str('dialect'),
    baseUrl: str('baseUrl'),
    model: str('model'),
    apiKeyEnv: str('apiKeyEnv'),
    languages: Array.isArray(langs) ? langs.filter((l): l is string => typeof l === 'string' && l.trim() !== '').map((l) => l.trim()) : [],
  };
  const debounce = count('debounceMs');
  if (debounce !== undefined) c.debounceMs = debounce;
  const max = count('maxTokens');
  if (max !== undefined && max > 0) c.maxTokens = max;
  return c;
}

/**
 * completionOptions is initializationOptions.completion: undefined (off,
 * the daemon announces no inlineCompletionProvider) until a dialect, base
 * URL or model is set. It never falls back to the chat's model: keystrokes
 * only go to a model named for completion.
 */
export function completionOptions(c: CompletionSettings): CompletionOptions | undefined {
  if (!c.dialect && !c.baseUrl && !c.model) return undefined;
  const o: CompletionOptions = {};
  if (c.dialect) o.dialect = c.dialect;
  if (c.baseUrl) o.baseURL = c.baseUrl;
  if (c.model) o.model = c.model;
  if (c.apiKeyEnv) o.apiKeyEnv = c.apiKeyEnv;
  if (c.languages.length > 0) o.languages = c.languages;
  if (c.debounceMs !== undefined) o.debounceMs = c.debounceMs;
  if (c.maxTokens !== undefined) o.maxTokens = c.maxTokens;
  return o;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * initializationOptions are the settings as the daemon reads them; trusted
 * false (VS Code's restricted mode) makes it the read-only agent.
 */
export function initializationOptions(s: AgentSettings, trusted = true): InitializationOptions {
  const o: InitializationOptions = {};
  if (!trusted) o.workspaceTrust = 'restricted';
  if (s.provider) o.provider = s.provider;
  if (s.model) o.model = s.model;
  if (s.baseUrl) o.baseURL = s.baseUrl;
  if (s.apiKeyEnv) o.apiKeyEnv = s.apiKeyEnv;
  if (Object.keys(s.mcpServers).length > 0) o.mcpServers = s.mcpServers;
  if (s.protectedFiles.length > 0) o.protectedFiles = s.protectedFiles;
  if (s.mode) o.mode = s.mode;
  const completion = completionOptions(s.completion);
  if (completion) o.completion = completion;
  if (s.spendLimit) o.spendLimit = s.spendLimit;
  return o;
}

/**
 * apiKeyVariable is the name of the variable the daemon reads the key
 * from, or undefined for "none" (a model without a key).
 */
export function apiKeyVariable(s: AgentSettings, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const name = s.apiKeyEnv || env[apiKeyEnvOverride] || defaultApiKeyEnv;
  return name === 'none' ? undefined : name;
}

/**
 * daemonEnvironment is the daemon's environment: the editor's, with the
 * key from secret storage (when one is stored) under the key variable. A
 * stored key wins over the environment: storing one is an explicit choice
 * made in this editor.
 */
export function daemonEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  s: AgentSettings,
  storedKey: string | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  const name = apiKeyVariable(s, base);
  if (name && storedKey) env[name] = storedKey;
  return env;
}

/** hasApiKey tells whether the daemon will find a key (or needs none). */
export function hasApiKey(s: AgentSettings, base: Readonly<Record<string, string | undefined>>, storedKey: string | undefined): boolean {
  const name = apiKeyVariable(s, base);
  return name === undefined || Boolean(storedKey) || Boolean(base[name]);
}

/** The settings whose change needs the daemon restarted (autoSave is read at each edit). */
export function needsRestart(before: AgentSettings, after: AgentSettings): boolean {
  return (
    before.path !== after.path ||
    JSON.stringify(initializationOptions(before)) !== JSON.stringify(initializationOptions(after))
  );
}

/** The secret storage key of the API key held for a variable. */
export function secretKey(variable: string): string {
  return `agentLsp.apiKey.${variable}`;
}
