package importflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// pkg is what check reads of one package in `go list -json` output.
type pkg struct {
	ImportPath   string
	Imports      []string // of the package's own files: what ships
	TestImports  []string // of its _test.go files in the package
	XTestImports []string // of its external (package x_test) test files
}

// decode reads the stream of JSON objects `go list -json` writes.
func decode(r io.Reader) ([]pkg, error) {
	dec := json.NewDecoder(r)
	var out []pkg
	for {
		var p pkg
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("decoding go list output: %w", err)
		}
		out = append(out, p)
	}
}

// check returns one message for every import of the module's packages
// that rs forbids, naming the package and the import, and for every
// package no rule covers. Imports from outside the module are not its
// business.
//
// The flow is checked on what ships (Imports): tests may reach across
// layers (an mcp test runs the agent loop, the e2e suites drive the daemon
// with lsp/lsptest). Three rules hold for tests too, or for everyone:
// nothing outside bench imports bench, nothing outside cmd imports cmd,
// and a test-support package is imported only by tests (or by another
// test-support package).
func check(module string, rs []rule, pkgs []pkg) []string {
	var bad []string
	for _, r := range rs {
		for _, m := range r.May {
			if !slices.ContainsFunc(rs, func(o rule) bool { return o.Path == m }) {
				bad = append(bad, fmt.Sprintf("rule %s names %s, which is no rule", r.Path, m))
			}
		}
	}
	for _, p := range pkgs {
		rel, ours := relative(module, p.ImportPath)
		if !ours {
			continue
		}
		r, ok := ruleOf(rs, rel)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: no rule covers it (add one to internal/importflow and docs/design.md §3)", p.ImportPath))
			continue
		}
		for _, imp := range p.Imports {
			if msg := r.forbids(module, rs, rel, imp, false); msg != "" {
				bad = append(bad, msg)
			}
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			if msg := r.forbids(module, rs, rel, imp, true); msg != "" {
				bad = append(bad, msg+" (in its tests)")
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// forbids says why package rel, under r, may not import imp ("" when it
// may). fromTest: the import is in a test file, where only the bench rule
// applies.
func (r rule) forbids(module string, rs []rule, rel, imp string, fromTest bool) string {
	target, ours := relative(module, imp)
	if !ours || target == rel {
		return ""
	}
	t, ok := ruleOf(rs, target)
	switch {
	case !ok:
		return fmt.Sprintf("%s imports %s, which no rule covers", rel, target)
	case t.Path == "bench" && r.Path != "bench":
		return fmt.Sprintf("%s imports %s: nothing outside bench imports bench", rel, target)
	case t.Path == "cmd" && r.Path != "cmd":
		return fmt.Sprintf("%s imports %s: nothing imports cmd (a binary is wiring; what it holds belongs in a package)", rel, target)
	case fromTest:
		return ""
	case isTestSupport(target) && !isTestSupport(rel):
		return fmt.Sprintf("%s imports %s: a test-support package is imported only by tests", rel, target)
	case t.Path == r.Path || r.Any || slices.Contains(r.May, t.Path):
		return ""
	}
	may := "nothing of ours"
	if len(r.May) > 0 {
		may = "only " + strings.Join(r.May, ", ")
	}
	return fmt.Sprintf("%s imports %s: %s may import %s (%s; docs/design.md §3)", rel, target, r.Path, may, r.Why)
}

// unused returns the rules that cover none of pkgs: a rule left behind
// by a package that moved or went.
func unused(module string, rs []rule, pkgs []pkg) []string {
	var out []string
	for _, r := range rs {
		if !slices.ContainsFunc(pkgs, func(p pkg) bool {
			rel, ours := relative(module, p.ImportPath)
			got, ok := ruleOf(rs, rel)
			return ours && ok && got.Path == r.Path
		}) {
			out = append(out, fmt.Sprintf("rule %s covers no package", r.Path))
		}
	}
	return out
}

// relative is the path of imp inside module, if it is in the module.
func relative(module, imp string) (string, bool) {
	if imp == module {
		return "", true // the module's root package: no rule covers it
	}
	return strings.CutPrefix(imp, module+"/")
}

// ruleOf is the rule with the longest path that is rel or a parent of it.
func ruleOf(rs []rule, rel string) (rule, bool) {
	var best rule
	found := false
	for _, r := range rs {
		if (rel == r.Path || strings.HasPrefix(rel, r.Path+"/")) && len(r.Path) >= len(best.Path) {
			best, found = r, true
		}
	}
	return best, found
}

// isTestSupport reports whether rel is a test-support package
// (provider/providertest, lsp/lsptest): its name ends in "test".
func isTestSupport(rel string) bool { return strings.HasSuffix(path.Base(rel), "test") }
