// The extension's settings (agentLsp.*) and what they become for the
// daemon: its command line, its environment and initializationOptions.
// API keys are never settings: the key comes from the environment or from
// VS Code's secret storage and reaches the daemon only in its environment.

import { modes } from '../protocol';

export interface AgentSettings {
  path: string;
  provider: string;
  model: string;
  baseUrl: string;
  apiKeyEnv: string;
  mcpServers: Record<string, unknown>;
  autoSave: boolean;
  /** The mode new sessions start in ("": the daemon's, default). */
  mode: string;
  /** agentLsp.completion.*: the inline completion model, off while dialect, baseUrl and model are all empty. */
  completion: CompletionSettings;
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
  mode?: string;
  completion?: CompletionOptions;
}

/** The daemon's default key variable, for every dialect (provider/config.go). */
export const defaultApiKeyEnv = 'DEEPSEEK_API_KEY';
/** The variable that changes the daemon's default key variable. */
export const apiKeyEnvOverride = 'AGENT_LSP_API_KEY_ENV';

/**
 * readSettings reads the settings through get (a WorkspaceConfiguration's
 * get in the extension), keeping defaults for values of the wrong type.
 */
export function readSettings(get: (key: string) => unknown): AgentSettings {
  const str = (key: string, def = ''): string => {
    const v = get(key);
    return typeof v === 'string' ? v.trim() : def;
  };
  const servers = get('mcpServers');
  const autoSave = get('autoSave');
  return {
    path: str('path') || 'agent-lsp',
    provider: str('provider'),
    model: str('model'),
    baseUrl: str('baseUrl'),
    apiKeyEnv: str('apiKeyEnv'),
    mcpServers: isPlainObject(servers) ? servers : {},
    autoSave: typeof autoSave === 'boolean' ? autoSave : true,
    mode: (modes as readonly string[]).includes(str('mode')) ? str('mode') : '',
    completion: readCompletion(get),
  };
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

export function initializationOptions(s: AgentSettings): InitializationOptions {
  const o: InitializationOptions = {};
  if (s.provider) o.provider = s.provider;
  if (s.model) o.model = s.model;
  if (s.baseUrl) o.baseURL = s.baseUrl;
  if (s.apiKeyEnv) o.apiKeyEnv = s.apiKeyEnv;
  if (Object.keys(s.mcpServers).length > 0) o.mcpServers = s.mcpServers;
  if (s.mode) o.mode = s.mode;
  const completion = completionOptions(s.completion);
  if (completion) o.completion = completion;
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
