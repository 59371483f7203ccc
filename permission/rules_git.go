package permission

import "strings"

// git rates a git invocation by subcommand: history rewrites on the remote
// and discarding uncommitted work are HIGH.
func (a *assessor) git(rest []arg) {
	i := 0
	for i < len(rest) && rest[i].isOption() {
		a.gitGlobalOption(rest, i)
		if gitValueOptions[rest[i].text] {
			i++
		}
		i++
	}
	if i >= len(rest) {
		return
	}
	if !rest[i].known {
		a.raise(Medium)
		return
	}
	sub, args := rest[i].text, rest[i+1:]
	a.gitSubcommandCode(sub, args)
	if sub == "config" {
		a.gitConfigCommand(args)
	}
	if lowSubcommands["git"][sub] {
		return
	}
	ops := operands(args, nil)
	if a.gitListing(sub, args, ops) {
		return
	}
	switch sub {
	case "push":
		for _, x := range args {
			switch {
			case shortFlag(x, 'f', "--force"), strings.HasPrefix(x.text, "--force-with-lease"),
				x.text == "--force-if-includes", x.text == "--mirror":
				a.flag(High, "git push --force rewrites the remote's history")
			case shortFlag(x, 'd', "--delete"), x.text == "--prune":
				a.flag(High, "git push --delete removes remote branches")
			}
		}
		if len(ops) > 0 && (strings.Contains(ops[0].text, "://") || remoteOperand(ops[0]) && strings.Contains(ops[0].text, "@")) {
			a.send("git push sends the repository to a URL, not a configured remote: "+ops[0].raw(), false)
		}
		for _, x := range ops {
			switch {
			case strings.HasPrefix(x.text, "+"):
				a.flag(High, "git push "+x.text+" force-pushes")
			case strings.HasPrefix(x.text, ":"):
				a.flag(High, "git push "+x.text+" deletes a remote branch")
			}
		}
	case "reset":
		if hasOption(args, "--hard") {
			a.flag(High, "git reset --hard discards uncommitted changes")
		}
	case "clean":
		dry, force := false, false
		for _, x := range args {
			dry = dry || shortFlag(x, 'n', "--dry-run")
			force = force || shortFlag(x, 'f', "--force") || shortFlag(x, 'i', "--interactive")
		}
		if force && !dry {
			a.flag(High, "git clean -f deletes untracked files")
		}
	case "checkout", "restore", "switch":
		if hasOption(args, "-f", "--force", "--discard-changes") {
			a.flag(High, "git "+sub+" --force discards uncommitted changes")
		}
		staged := hasOption(args, "--staged", "-S") && !hasOption(args, "--worktree", "-W")
		for _, x := range ops {
			if (x.text == "." || x.text == ":/" || x.text == "*") && sub != "switch" && !staged {
				a.flag(High, "git "+sub+" "+x.text+" discards all uncommitted changes")
			}
		}
	case "stash":
		if len(ops) > 0 && ops[0].text == "clear" {
			a.flag(High, "git stash clear deletes every stash")
		}
	case "filter-branch", "filter-repo":
		a.flag(High, "git "+sub+" rewrites history")
	case "reflog":
		if len(ops) > 0 && (ops[0].text == "expire" || ops[0].text == "delete") {
			a.flag(High, "git reflog "+ops[0].text+" drops recovery points")
		}
	case "gc", "prune":
		for _, x := range args {
			if strings.HasPrefix(x.text, "--prune=now") || x.text == "--prune=all" || sub == "prune" {
				a.flag(High, "git "+sub+" deletes unreachable commits now")
				break
			}
		}
	case "update-ref":
		if hasOption(args, "-d") {
			a.flag(High, "git update-ref -d deletes a ref")
		}
	}
	a.raise(Medium)
}

// gitListing reports whether a git subcommand only lists (git branch,
// git tag -l, git remote -v, git config --get, git stash list).
func (a *assessor) gitListing(sub string, args, ops []arg) bool {
	switch sub {
	case "branch", "tag":
		for _, x := range args {
			switch x.text {
			case "-a", "-r", "-v", "-vv", "--list", "-l", "--show-current", "--all", "--remotes",
				"--merged", "--no-merged", "--contains", "-n":
			default:
				return false
			}
		}
		return true
	case "remote":
		return len(ops) == 0 || ops[0].text == "show" || ops[0].text == "get-url"
	case "stash", "worktree", "notes":
		return len(ops) > 0 && (ops[0].text == "list" || ops[0].text == "show")
	case "config":
		return hasOption(args, "--get", "--get-all", "--list", "-l", "--get-regexp") ||
			(len(ops) > 0 && (ops[0].text == "get" || ops[0].text == "list"))
	case "reflog":
		return len(ops) == 0 || ops[0].text == "show"
	}
	return false
}
