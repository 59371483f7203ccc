// Which paths in an answer are files of the workspace. A path is taken
// relative to each workspace folder (or as an absolute path) and is a file
// here only when it exists and, symbolic links followed, stays inside its
// folder: an answer cannot link to /etc/passwd or ../../secrets.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** Answers look up the same few paths on every delta: remembered, up to this many. */
const remembered = 2000;

export class WorkspaceFiles {
  private readonly known = new Map<string, string | undefined>();

  /** roots are the workspace folders' paths, asked on every lookup (folders come and go). */
  constructor(private readonly roots: () => readonly string[]) {}

  /** resolve is the absolute path of the file candidate names inside the workspace, or undefined. */
  resolve(candidate: string): string | undefined {
    if (this.known.has(candidate)) return this.known.get(candidate);
    const found = this.lookUp(candidate);
    if (this.known.size >= remembered) this.known.clear();
    this.known.set(candidate, found);
    return found;
  }

  /** forget drops what resolve remembered (files were created or deleted). */
  forget(): void {
    this.known.clear();
  }

  private lookUp(candidate: string): string | undefined {
    if (candidate === '' || candidate.includes('\0')) return undefined;
    for (const root of this.roots()) {
      const file = path.resolve(root, candidate);
      if (!inside(root, file)) continue;
      try {
        const real = fs.realpathSync(file);
        if (inside(fs.realpathSync(root), real) && fs.statSync(real).isFile()) return file;
      } catch {
        // No such file under this folder.
      }
    }
    return undefined;
  }
}

function inside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
