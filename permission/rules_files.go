package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// copyMove rates cp, mv, install, ln and rsync: the destination is
// written; mv also takes its sources away, like a recursive delete.
func (a *assessor) copyMove(prog string, rest []arg) {
	valueOpts := set("-t", "-S", "--suffix", "-m", "-o", "-g", "--mode", "--owner", "--group",
		"-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--target-directory")
	if prog != "install" {
		delete(valueOpts, "-m")
		delete(valueOpts, "-o")
		delete(valueOpts, "-g")
	}
	if prog != "rsync" {
		delete(valueOpts, "-e")
		delete(valueOpts, "-f")
	}
	ops := operands(rest, valueOpts)
	var dest *arg
	for i, x := range rest {
		if x.text == "-t" && i+1 < len(rest) {
			d := rest[i+1]
			dest = &d
		} else if v, ok := strings.CutPrefix(x.text, "--target-directory="); ok {
			d := x
			d.text = v
			dest = &d
		}
	}
	sources := ops
	if dest == nil && len(ops) > 0 {
		if len(ops) == 1 && prog == "ln" {
			d := literalArg(".")
			dest = &d
		} else {
			dest = &ops[len(ops)-1]
			sources = ops[:len(ops)-1]
		}
	}
	if dest == nil {
		return
	}
	if prog == "rsync" && remoteOperand(*dest) {
		a.transfer(prog, rest) // remote destination: not this machine's files
		return
	}
	t := a.resolve(*dest)
	a.writeTarget(t, prog+" writes")
	if prog == "mv" {
		for _, s := range sources {
			a.deleteTarget(a.resolve(s), true, "move")
		}
	}
	if prog == "rsync" && hasPrefixOption(rest, "--delete") {
		t.children, t.all = true, true
		t.shown = a.describe(t)
		a.deleteTarget(t, true, "rsync --delete")
	}
}

// sed rates sed -i: the files are rewritten in place.
func (a *assessor) sed(rest []arg) {
	a.sedScript(rest)
	inPlace, scriptGiven := false, false
	for _, x := range rest {
		if !x.known || !strings.HasPrefix(x.text, "-") || strings.HasPrefix(x.text, "--") && !strings.HasPrefix(x.text, "--in-place") &&
			x.text != "--expression" && x.text != "--file" {
			continue
		}
		if strings.HasPrefix(x.text, "--in-place") || (!strings.HasPrefix(x.text, "--") && strings.Contains(x.text, "i")) {
			inPlace = true
		}
		if x.text == "-e" || x.text == "-f" || x.text == "--expression" || x.text == "--file" {
			scriptGiven = true
		}
	}
	if !inPlace {
		return
	}
	a.raise(Medium)
	ops := operands(rest, set("-e", "-f", "--expression", "--file", "-l", "--line-length"))
	if !scriptGiven && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, x := range ops {
		a.writeTarget(a.resolve(x), "sed -i edits")
	}
}

// filterOutput rates the output file of sort -o, uniq IN OUT, xxd IN OUT.
func (a *assessor) filterOutput(prog string, rest []arg) {
	for i, x := range rest {
		if prog == "sort" && x.text == "-o" && i+1 < len(rest) {
			a.writeTarget(a.resolve(rest[i+1]), "sort -o writes")
		} else if v, ok := strings.CutPrefix(x.text, "--output="); ok && prog == "sort" {
			y := x
			y.text = v
			a.writeTarget(a.resolve(y), "sort -o writes")
		}
	}
	if prog != "sort" {
		if ops := operands(rest, set("-f", "-s", "-w", "-c", "-l", "-o", "-g", "-n", "-u", "-C")); len(ops) == 2 {
			a.writeTarget(a.resolve(ops[1]), prog+" writes")
		}
	}
}

// download records files written by curl -o and wget -O so that running
// them later in the same command is caught.
func (a *assessor) download(prog string, rest []arg) {
	a.uploads(prog, rest)
	a.remoteNames(prog, rest)
	for i, x := range rest {
		var out *arg
		switch {
		case (x.text == "-o" || x.text == "--output") && prog == "curl", (x.text == "-O" || x.text == "--output-document") && prog == "wget":
			if i+1 < len(rest) {
				out = &rest[i+1]
			}
		case prog == "wget" && strings.HasPrefix(x.text, "--output-document="):
			y := x
			y.text = strings.TrimPrefix(x.text, "--output-document=")
			out = &y
		case prog == "wget" && strings.HasPrefix(x.text, "-O") && len(x.text) > 2:
			y := x
			y.text = x.text[2:]
			out = &y
		}
		if out == nil || out.text == "-" {
			continue
		}
		t := a.resolve(*out)
		a.writeTarget(t, prog+" writes")
		if t.path != "" {
			a.downloaded[t.path] = true
		}
	}
}

// remoteNames records the files curl -O and wget (without -O) name after
// the URL: curl -LO https://x/i.sh && sh i.sh runs a download.
func (a *assessor) remoteNames(prog string, rest []arg) {
	named := prog == "wget"
	for _, x := range rest {
		switch {
		case prog == "curl" && (x.text == "--remote-name" || x.text == "--remote-name-all" ||
			x.isOption() && !strings.HasPrefix(x.text, "--") && strings.Contains(x.text, "O")):
			named = true
		case prog == "wget" && (x.text == "-O" || strings.HasPrefix(x.text, "--output-document") || strings.HasPrefix(x.text, "-O")):
			return // named by -O, recorded by download
		}
	}
	if !named {
		return
	}
	for _, x := range rest {
		_, after, ok := strings.Cut(x.text, "://")
		if !ok || !x.known {
			continue
		}
		after, _, _ = strings.Cut(after, "?")
		after, _, _ = strings.Cut(after, "#")
		if i := strings.LastIndex(after, "/"); i >= 0 && i+1 < len(after) {
			if t := a.resolve(literalArg(after[i+1:])); t.path != "" {
				a.downloaded[t.path] = true
			}
		}
	}
}

// redirectedDownload records where curl … > file puts a download.
func (a *assessor) redirectedDownload(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	prog, _ := a.effective(a.exp.expandAll(c.Args))
	if !downloaders[prog] {
		return
	}
	a.markDownloads(redirs)
}

// markDownloads records the files output redirections write.
func (a *assessor) markDownloads(redirs []*syntax.Redirect) {
	for _, r := range redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll:
			if t := a.resolve(a.exp.single(r.Word)); t.path != "" {
				a.downloaded[t.path] = true
			}
		}
	}
}

// extract rates where tar -x and unzip put files.
func (a *assessor) extract(prog string, rest []arg) {
	opt := "-C"
	if prog == "unzip" {
		opt = "-d"
	}
	for i, x := range rest {
		if (x.text == opt || (prog == "tar" && x.text == "--directory")) && i+1 < len(rest) {
			a.writeTarget(a.resolve(rest[i+1]), prog+" extracts")
		} else if v, ok := strings.CutPrefix(x.text, "--directory="); ok && prog == "tar" {
			y := x
			y.text = v
			a.writeTarget(a.resolve(y), prog+" extracts")
		}
	}
}

// container rates docker/podman run with the host's root mounted or
// privileges that equal root on the host.
func (a *assessor) container(prog string, rest []arg) {
	sub := subcommand(prog, rest)
	if sub == "run" || sub == "create" {
		a.mountsSecrets(prog, sub, rest)
	}
	if sub != "run" && sub != "create" && sub != "exec" {
		if sub == "system" && hasOption(rest, "prune") {
			a.flag(High, prog+" system prune deletes images, containers and volumes")
		}
		return
	}
	for i, x := range rest {
		switch {
		case x.text == "--privileged":
			a.flag(High, prog+" "+sub+" --privileged has root on the host")
		case (x.text == "-v" || x.text == "--volume") && i+1 < len(rest) && strings.HasPrefix(rest[i+1].text, "/:"):
			a.flag(High, prog+" "+sub+" mounts the host's /")
		}
	}
}
