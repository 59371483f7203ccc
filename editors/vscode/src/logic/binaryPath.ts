// Which agent-lsp binary the extension starts: the one the user named in
// agentLsp.path, else the one bundled in a platform .vsix
// (scripts/release puts it at bin/agent-lsp[.exe]), else agent-lsp on
// PATH. So an installed .vsix works with no toolchain and nothing on PATH,
// a user's own build still wins when they name it, and the generic .vsix
// (scripts/build-vscode's, no binary inside) finds one on PATH as before.

import { join } from 'node:path';
import { findProgram } from './mistakes';

/** The setting's default: a bare name, "not set" (package.json's agentLsp.path default). */
export const defaultProgram = 'agent-lsp';

/** bundledBinary is where a platform .vsix holds its binary, under the extension's folder. */
export function bundledBinary(extensionPath: string, platform = process.platform): string {
  return join(extensionPath, 'bin', platform === 'win32' ? 'agent-lsp.exe' : 'agent-lsp');
}

/**
 * daemonProgram is the binary to start, or undefined when there is none:
 * agentLsp.path when the user set it (a path as it is, a name on PATH),
 * else the bundled binary when it is there, else agent-lsp on PATH.
 * exists says whether a path is an executable file.
 */
export function daemonProgram(
  configured: string,
  extensionPath: string,
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
  platform = process.platform,
): string | undefined {
  if (configured !== '' && configured !== defaultProgram) return findProgram(configured, env, exists, platform);
  const bundled = bundledBinary(extensionPath, platform);
  if (exists(bundled)) return bundled;
  return findProgram(defaultProgram, env, exists, platform);
}
