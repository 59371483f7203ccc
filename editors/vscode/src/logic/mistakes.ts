// The first-hour mistakes (no binary, no key, a rejected key, a server
// out of reach) as one short message each, with the button that fixes
// it: recognised from the daemon's stable texts (lsp/initialize.go's
// "no API key", provider.HTTPError's "model API answered <status>"), never
// shown as raw JSON or with the agent loop's "round N:" prefix.

import { delimiter, isAbsolute, join } from 'node:path';

export const installUrl = 'https://github.com/agent-lsp/agent-lsp#install';

/** A fix a message offers: its button's title and what it runs. */
export type Fix =
  | { title: 'Set API Key'; command: 'agentLsp.setApiKey' }
  | { title: 'Set Path'; command: 'workbench.action.openSettings'; arg: 'agentLsp.path' }
  | { title: 'How to Install'; url: string }
  | { title: 'Open Settings'; command: 'workbench.action.openSettings'; arg: 'agentLsp.baseUrl' };

export type MistakeKind = 'noBinary' | 'noKey' | 'keyRejected' | 'unreachable' | 'other';

export interface Mistake {
  kind: MistakeKind;
  /** One line, at most a sentence or two; no JSON. */
  message: string;
  fixes: Fix[];
}

const setKey: Fix = { title: 'Set API Key', command: 'agentLsp.setApiKey' };

/** noBinary is the message for a daemon binary that is not there. */
export function noBinary(path: string): Mistake {
  return {
    kind: 'noBinary',
    message: `agent-lsp: the agent-lsp program was not found (${path}). Install the extension's .vsix for your platform (it carries the program), or install the program ("npm install -g agent-lsp" or "go install github.com/agent-lsp/agent-lsp/cmd/agent-lsp@latest"), or set agentLsp.path to where it is.`,
    fixes: [{ title: 'How to Install', url: installUrl }, { title: 'Set Path', command: 'workbench.action.openSettings', arg: 'agentLsp.path' }],
  };
}

/** noKey is the message for a model that needs a key none was given for. */
export function noKey(variable: string): Mistake {
  return {
    kind: 'noKey',
    message: `agent-lsp: no API key. Set one (kept in VS Code's secret storage), or set ${variable} in the environment VS Code starts from.`,
    fixes: [setKey],
  };
}

/**
 * promptMistake reads a failed prompt's error text (agent/prompt's
 * `error`, or a request's error message) as one of the mistakes.
 */
export function promptMistake(error: string, baseUrl?: string): Mistake {
  const text = error.replace(/^(?:round \d+: )+/, '').trim();
  const key = /no API key: the environment variable (\S+)/.exec(text);
  if (key) return noKey(key[1]);
  const http = /model API answered (\d{3})[^:]*(?::\s*(.*))?$/s.exec(text);
  if (http && (http[1] === '401' || http[1] === '403')) {
    const said = providerMessage(http[2] ?? '');
    return {
      kind: 'keyRejected',
      message: `agent-lsp: the model API rejected the key (${http[1]}${said ? `: ${said}` : ''}).`,
      fixes: [setKey],
    };
  }
  if (http) {
    const said = providerMessage(http[2] ?? '');
    return { kind: 'other', message: `agent-lsp: the model API answered ${http[1]}${said ? `: ${said}` : ''}.`, fixes: [] };
  }
  const unreachable = /(connection refused|no such host|network is unreachable|i\/o timeout|connection reset|certificate|stream idle)/i.exec(text);
  if (unreachable) {
    const url = /"(https?:\/\/[^"]+)"/.exec(text)?.[1] ?? baseUrl ?? 'the model API';
    return {
      kind: 'unreachable',
      message: `agent-lsp: cannot reach ${url} (${unreachable[1].toLowerCase()}).`,
      fixes: [{ title: 'Open Settings', command: 'workbench.action.openSettings', arg: 'agentLsp.baseUrl' }],
    };
  }
  return { kind: 'other', message: `agent-lsp: ${oneLine(text)}`, fixes: [] };
}

/**
 * providerMessage is what the provider said in an error body, in one
 * line: its error.message (OpenAI, DeepSeek, Anthropic all nest it so),
 * else the body itself without braces and quotes.
 */
export function providerMessage(body: string): string {
  const b = body.trim();
  if (b === '') return '';
  try {
    const parsed: unknown = JSON.parse(b);
    const found = messageIn(parsed);
    if (found) return oneLine(found);
  } catch {
    // An excerpt cut at 500 bytes, or not JSON: read the message field by its shape.
  }
  const m = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(b);
  if (m) {
    try {
      return oneLine(JSON.parse(`"${m[1]}"`) as string);
    } catch {
      return oneLine(m[1]);
    }
  }
  return b.startsWith('{') || b.startsWith('[') ? '' : oneLine(b);
}

function messageIn(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.message === 'string') return o.message;
  if (typeof o.error === 'string') return o.error;
  return messageIn(o.error);
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * isLoopbackUrl says whether a model's base URL is on this machine
 * (localhost, *.localhost, 127.0.0.0/8, ::1): the daemon needs no key for
 * it (provider.Config.APIKey), so neither does our warning.
 */
export function isLoopbackUrl(raw: string | undefined): boolean {
  let host: string;
  try {
    host = new URL(raw ?? '').hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * findProgram is where the daemon's binary is: an absolute or relative
 * path as it is, a bare name looked up on PATH (with PATHEXT on Windows);
 * undefined when there is none. exists says whether a path is an
 * executable file.
 */
export function findProgram(program: string, env: NodeJS.ProcessEnv, exists: (path: string) => boolean, platform = process.platform): string | undefined {
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  if (isAbsolute(program) || program.includes('/') || (platform === 'win32' && program.includes('\\'))) {
    return exts.map((e) => program + e).find(exists);
  }
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    const found = exts.map((e) => join(dir, program + e)).find(exists);
    if (found) return found;
  }
  return undefined;
}

/**
 * OneAtATime lets a message through only while no message of the same
 * kind is on screen: the daemon's start, each prompt and each command
 * meeting the same mistake show it once, not three times.
 */
export class OneAtATime {
  private readonly shown = new Set<string>();

  /** show runs display unless a message of kind is still shown; the kind is free again when display settles. */
  show<T>(kind: string, display: () => PromiseLike<T>): PromiseLike<T | undefined> {
    if (this.shown.has(kind)) return Promise.resolve(undefined);
    this.shown.add(kind);
    const release = (): void => {
      this.shown.delete(kind);
    };
    return Promise.resolve(display()).finally(release);
  }
}
