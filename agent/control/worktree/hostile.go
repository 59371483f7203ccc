package worktree

import (
	"bytes"
	"context"
	"strings"
)

// baseGuard is set on every git call, over whatever the repository's
// configuration says (command-line configuration wins): nothing the
// repository names runs.
var baseGuard = []string{
	"-c", "core.hooksPath=/dev/null", // no hook: post-checkout, pre-commit, reference-transaction, ...
	"-c", "core.fsmonitor=false", // a program run by every status and diff
	"-c", "core.sshCommand=false", "-c", "protocol.allow=never", // no transport at all: nothing here fetches
	"-c", "core.editor=:", "-c", "sequence.editor=:", "-c", "core.pager=cat",
	"-c", "commit.gpgSign=false", "-c", "tag.gpgSign=false", "-c", "merge.verifySignatures=false", "-c", "log.showSignature=false",
	"-c", "merge.default=text", "-c", "merge.stat=false", // diffs run with --no-ext-diff --no-textconv
	"-c", "submodule.recurse=false", "-c", "status.submoduleSummary=false",
	"-c", "gc.auto=0", "-c", "maintenance.auto=false",
	"-c", "core.askPass=", "-c", "credential.helper=",
}

// repoGuard adds, for the drivers the configuration of the repository at
// dir defines (filters, merge and diff drivers, named in
// .gitattributes), settings that keep them from running: filters do
// nothing (and are not required), a merge driver fails (the merge
// conflicts and is aborted). Diff drivers need no setting: every diff
// here is --no-ext-diff --no-textconv.
// Reading the configuration runs nothing.
func repoGuard(ctx context.Context, dir string) ([]string, error) {
	out, err := git(ctx, dir, nil, nil, "config", "--null", "--list")
	if err != nil {
		return nil, err
	}
	var guard []string
	seen := map[string]bool{}
	for entry := range bytes.SplitSeq(out, []byte{0}) {
		key, _, _ := strings.Cut(string(entry), "\n")
		section, rest, ok := strings.Cut(key, ".")
		if !ok {
			continue
		}
		dot := strings.LastIndex(rest, ".")
		if dot < 0 {
			continue
		}
		name, variable := rest[:dot], rest[dot+1:]
		var settings []string
		switch {
		case section == "filter" && !seen["filter."+name]:
			settings = []string{"clean=", "smudge=", "process=", "required=false"}
		case section == "merge" && variable == "driver" && !seen["merge."+name]:
			settings = []string{"driver=false"}
		}
		if settings == nil {
			continue
		}
		seen[section+"."+name] = true
		for _, s := range settings {
			guard = append(guard, "-c", section+"."+name+"."+s)
		}
	}
	return guard, nil
}
