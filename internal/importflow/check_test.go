package importflow

import (
	"slices"
	"strings"
	"testing"
)

const mod = "example.com/m"

// list is synthetic `go list -json` output, decoded: one object per
// package, written "path: imports | test imports" with our paths relative
// to mod; an import written "=path" is std's or another module's.
func list(t *testing.T, pkgs ...string) []pkg {
	t.Helper()
	var out strings.Builder
	abs := func(fields []string) string {
		q := make([]string, len(fields))
		for i, f := range fields {
			if other, ok := strings.CutPrefix(f, "="); ok {
				q[i] = `"` + other + `"`
			} else {
				q[i] = `"` + mod + "/" + f + `"`
			}
		}
		return "[" + strings.Join(q, ",") + "]"
	}
	for _, p := range pkgs {
		name, rest, _ := strings.Cut(p, ":")
		imports, tests, _ := strings.Cut(rest, "|")
		out.WriteString(`{"ImportPath":"` + mod + "/" + name + `","Imports":` + abs(strings.Fields(imports)) +
			`,"XTestImports":` + abs(strings.Fields(tests)) + "}\n")
	}
	got, err := decode(strings.NewReader(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(pkgs) {
		t.Fatalf("decoded %d packages of %d", len(got), len(pkgs))
	}
	return got
}

// The checker itself, on synthetic go list output: every kind of violation
// is reported with the package and the import it names, and what the rule
// allows is not.
func TestCheckReportsWhatTheRulesForbid(t *testing.T) {
	for _, tt := range []struct {
		name string
		pkgs []string
		want []string // messages, or a part of each
	}{
		{name: "the repository's shape is clean", pkgs: []string{
			"provider: =fmt =github.com/x/y", "provider/openai: provider", "provider/connect: provider/openai provider/anthropic",
			"provider/providertest: provider", "permission:", "tools: permission tools/sandbox", "tools/sandbox: permission",
			"agent: provider tools permission agent/contentstore | provider/providertest provider/openai",
			"agent/contentstore:", "agent/completion: provider/fim", "mcp: tools permission tools/editorjson | agent provider/providertest",
			"agent/control: agent provider tools permission mcp", "acp: agent/control agent mcp",
			"lsp: agent agent/control agent/completion provider/fim tools/sandbox mcp | lsp/lsptest",
			"lsp/lsptest: mcp/demo", "acp/e2e: | lsp/lsptest provider/providertest", "editors/nvim/e2e: | lsp/lsptest tools",
			"term: agent/control agent mcp permission | provider/providertest",
			"cmd/agent-lsp: acp lsp term mcp/demo provider/connect | lsp/lsptest", "bench/lsp: bench/lspclient agent provider/openai",
			"internal/importflow: =encoding/json",
		}},
		{name: "a layer imports one above it", pkgs: []string{"provider:", "tools: permission agent", "agent: tools", "permission:"},
			want: []string{"tools imports agent: tools may import only permission"}},
		{name: "the bottom imports nothing of ours", pkgs: []string{"provider/openai: tools", "tools:"},
			want: []string{"provider/openai imports tools: provider may import nothing of ours"}},
		{name: "a subpackage with its own rule is not its parent", pkgs: []string{"agent: mcp", "agent/control: mcp", "mcp:"},
			want: []string{"agent imports mcp: agent may import only provider, tools, permission, agent/contentstore, agent/completion"}},
		{name: "a leaf imports nothing of ours", pkgs: []string{"agent/contentstore: agent/completion", "agent/completion:", "internal/x: tools", "tools:"},
			want: []string{"agent/contentstore imports agent/completion: agent/contentstore may import nothing", "internal/x imports tools: internal may import nothing"}},
		{name: "front ends do not import each other", pkgs: []string{"lsp: acp", "acp: lsp/lsptest"},
			want: []string{"acp imports lsp/lsptest: a test-support package is imported only by tests", "lsp imports acp: lsp may import only"}},
		{name: "the terminal imports no other front end", pkgs: []string{"term: lsp agent/control", "lsp:", "agent/control:"},
			want: []string{"term imports lsp: term may import only agent/world, agent/control, agent, provider, tools, permission, mcp"}},
		{name: "nothing imports cmd, not even a test", pkgs: []string{"cmd/agent-lsp: term", "term: | cmd/agent-lsp", "lsp: cmd/agent-lsp"},
			want: []string{"lsp imports cmd/agent-lsp: nothing imports cmd", "term imports cmd/agent-lsp: nothing imports cmd (a binary is wiring; what it holds belongs in a package) (in its tests)"}},
		{name: "test support only from tests", pkgs: []string{"tools: provider/providertest", "provider/providertest:", "lsp/lsptest: provider/providertest"},
			want: []string{"tools imports provider/providertest: a test-support package is imported only by tests"}},
		{name: "nothing imports bench, not even a test or cmd", pkgs: []string{"bench/lspclient:", "cmd/agent-lsp: bench/lspclient", "tools: | bench/lspclient"},
			want: []string{"cmd/agent-lsp imports bench/lspclient: nothing outside bench imports bench", "tools imports bench/lspclient: nothing outside bench imports bench (in its tests)"}},
		{name: "a package no rule covers", pkgs: []string{"util: provider", "provider: util"},
			want: []string{mod + "/util: no rule covers it", "provider imports util, which no rule covers"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := check(mod, rules, list(t, tt.pkgs...))
			if len(got) != len(tt.want) {
				t.Fatalf("got %d messages, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("message %d = %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
}

// A rule naming a rule that does not exist (a typo would allow nothing,
// silently) and a rule that covers no package are reported.
func TestCheckReportsStaleRules(t *testing.T) {
	rs := []rule{{Path: "a", May: []string{"b"}}, {Path: "c"}}
	pkgs := list(t, "a:")
	if got := check(mod, rs, pkgs); !slices.Equal(got, []string{"rule a names b, which is no rule"}) {
		t.Errorf("check = %q", got)
	}
	if got := unused(mod, rs, pkgs); !slices.Equal(got, []string{"rule c covers no package"}) {
		t.Errorf("unused = %q", got)
	}
}
