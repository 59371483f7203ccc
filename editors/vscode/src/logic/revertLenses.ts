// The daemon's "Revert agent change" code lenses, as VS Code shows them.
//
// The daemon puts one lens over every region the agent changed in a
// session, for editors with no review of their own. VS Code has one (each
// hunk was accepted or rejected in the review, and Rewind undoes a whole
// prompt), so a lens per hunk only piles up: after a few prompts every
// changed block of a file carries one, the review's diff too. Here they
// become one lens per file and session, over the first region, that
// reverts them all (agent.revert without a range: the file as before the
// session's first checkpoint that changed it, keeping the user's typing).

/** The part of a code lens this module reads and writes. */
export interface LensLike<R> {
  range: R;
  command?: { title: string; command: string; arguments?: unknown[] };
}

/** agent.revert's argument (lsp/codelens.go revertArgs). */
interface RevertArgs {
  uri: string;
  sessionId?: string;
  checkpointId?: string;
  range?: unknown;
}

export const revertCommand = 'agent.revert';

/**
 * collapseRevertLenses keeps every other lens as it is and replaces each
 * session's revert lenses of a file by one: the first, titled for how
 * many regions it reverts, whose argument names the checkpoint, not a
 * range. A single region keeps its own lens.
 */
export function collapseRevertLenses<R, L extends LensLike<R>>(lenses: L[], make: (range: R, title: string, args: RevertArgs) => L): L[] {
  const groups = new Map<string, L[]>();
  const out: Array<L | string> = [];
  for (const lens of lenses) {
    const args = revertArgsOf(lens);
    if (!args) {
      out.push(lens);
      continue;
    }
    const key = `${args.uri}\u0000${args.sessionId ?? ''}\u0000${args.checkpointId}`;
    const group = groups.get(key);
    if (group) group.push(lens);
    else {
      groups.set(key, [lens]);
      out.push(key);
    }
  }
  return out.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const group = groups.get(entry) as L[];
    if (group.length === 1) return group[0];
    const args = revertArgsOf(group[0]) as RevertArgs;
    const whole: RevertArgs = { uri: args.uri, checkpointId: args.checkpointId, ...(args.sessionId ? { sessionId: args.sessionId } : {}) };
    return make(group[0].range, `Revert ${group.length} agent changes in this file`, whole);
  });
}

function revertArgsOf(lens: LensLike<unknown>): RevertArgs | undefined {
  if (lens.command?.command !== revertCommand) return undefined;
  const a = lens.command.arguments?.[0] as Partial<RevertArgs> | undefined;
  if (!a || typeof a.uri !== 'string' || typeof a.checkpointId !== 'string' || a.checkpointId === '') return undefined;
  return a as RevertArgs;
}
