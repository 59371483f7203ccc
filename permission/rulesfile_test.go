package permission

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func bashCall(cmd string, risk Risk) Action {
	return Action{Tool: "run_bash", Command: cmd, Risk: risk, Scope: "run_bash:x"}
}

func TestRuleMatchesParsedCommandNeverText(t *testing.T) {
	exact := mustRule(t, "run_bash: go test ./...", RuleAllow)
	prefix := mustRule(t, "run_bash: go test *", RuleAllow)
	for _, c := range []struct {
		cmd           string
		exact, prefix bool
	}{
		{"go test ./...", true, true},
		{"go  test   ./...", true, true},
		{"'go' \"test\" ./...", true, true},
		{"go test ./... -run X", false, true},
		{"go test", false, true},
		{"go test ./... ; curl x | sh", false, false},
		{"go test ./... && rm -rf ~", false, false},
		{"go test ./... | sh", false, false},
		{"go test $(curl x)", false, false},
		{"go test `curl x`", false, false},
		{"go test ./... > /etc/passwd", false, false},
		{"FOO=1 go test ./...", false, false},
		{"go test ./... &", false, false},
		{"! go test ./...", false, false},
		{"(go test ./...)", false, false},
		{"go test $HOME", false, false},
		{"go test *", false, false},
		{"go tests ./...", false, false},
		{"go test ./...\ncurl x | sh", false, false},
		{"go test ./... #comment", true, true},
	} {
		a := bashCall(c.cmd, Low)
		if got := exact.Matches(a); got != c.exact {
			t.Errorf("exact rule on %q: %v, want %v", c.cmd, got, c.exact)
		}
		if got := prefix.Matches(a); got != c.prefix {
			t.Errorf("prefix rule on %q: %v, want %v", c.cmd, got, c.prefix)
		}
	}
}

func TestRuleMatchesPathsAndTools(t *testing.T) {
	src := mustRule(t, "edit_file: src/**", RuleAllow)
	mcp := mustRule(t, "mcp__github__*", RuleAllow)
	for _, c := range []struct {
		rule Rule
		a    Action
		want bool
	}{
		{src, Action{Tool: "edit_file", Path: "src/a/b.go"}, true},
		{src, Action{Tool: "edit_file", Path: "src"}, true},
		{src, Action{Tool: "edit_file", Path: "srcs/a.go"}, false},
		{src, Action{Tool: "edit_file", Path: "/abs/src/a.go"}, false},
		{src, Action{Tool: "write_file", Path: "src/a.go"}, false},
		{src, Action{Tool: "edit_file"}, false},
		{mcp, Action{Tool: "mcp__github__create_issue"}, true},
		{mcp, Action{Tool: "mcp__gitlab__create_issue"}, false},
	} {
		if got := c.rule.Matches(c.a); got != c.want {
			t.Errorf("%s on %+v: %v, want %v", c.rule, c.a, got, c.want)
		}
	}
}

func TestRuleForWritesWhatMatchesOnlyThisCall(t *testing.T) {
	for _, c := range []struct {
		a    Action
		want string
	}{
		{bashCall("go test ./...", Low), "run_bash: go test ./..."},
		{bashCall("echo 'a b'", Low), "run_bash: echo 'a b'"},
		{bashCall("go test ./... ; ls", Low), ""},
		{bashCall("go test $(x)", Low), ""},
		{bashCall("echo 'a\rb'", Low), ""},
		{Action{Tool: "edit_file", Path: "src/a.go"}, "edit_file: src/a.go"},
		{Action{Tool: "edit_file", Path: "src/*.go"}, ""},
		{Action{Tool: "mcp__github__create_issue", Scope: "mcp__github__create_issue"}, "mcp__github__create_issue"},
		{Action{Tool: "web_fetch", Scope: "web_fetch:example.com"}, ""},
	} {
		got := RuleFor(c.a)
		if got != c.want {
			t.Errorf("RuleFor(%+v) = %q, want %q", c.a, got, c.want)
			continue
		}
		if got == "" {
			continue
		}
		r := mustRule(t, got, RuleAllow)
		if !r.Matches(c.a) {
			t.Errorf("%q does not match the call it was written for", got)
		}
	}
}

func TestParseRuleRejectsWhatItCannotMatchExactly(t *testing.T) {
	for _, line := range []string{"", ": x", "run_bash: go test ; ls", "run_bash: go $(x)", "edit_file: src/[", "a b"} {
		if _, err := ParseRule(line, RuleAllow, SourceUser); err == nil {
			t.Errorf("ParseRule(%q) accepted", line)
		}
	}
}

func mustRule(t *testing.T, line string, kind RuleKind) Rule {
	t.Helper()
	r, err := ParseRule(line, kind, SourceUser)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rulesSetup is a user rules file, a workspace and a state directory.
type rulesSetup struct {
	userFile, root, state string
}

func newRulesSetup(t testing.TB) rulesSetup {
	dir := t.TempDir()
	s := rulesSetup{userFile: filepath.Join(dir, "config", "agent-lsp", "permissions.json"),
		root: filepath.Join(dir, "ws"), state: filepath.Join(dir, "state")}
	if err := os.MkdirAll(filepath.Join(s.root, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s rulesSetup) rules() *Rules { return NewRuleFiles(s.userFile, s.state).For(s.root) }

func (s rulesSetup) writeUser(t testing.TB, content string) {
	t.Helper()
	writeFile(t, s.userFile, content, 0o600)
}

func (s rulesSetup) writeWorkspace(t testing.TB, content string) {
	t.Helper()
	writeFile(t, filepath.Join(s.root, WorkspaceRulesFile), content, 0o644)
}

func writeFile(t testing.TB, name, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
}

func decided(r *Rules, a Action) string {
	rule, ok := r.Decide(a)
	if !ok {
		return "ask"
	}
	return string(rule.Decision)
}

func TestDenyFirstAndNoRuleAllowsHigh(t *testing.T) {
	s := newRulesSetup(t)
	s.writeUser(t, `{"allow": ["run_bash: rm *", "run_bash: git push *"], "deny": ["run_bash: git push *"]}`)
	r := s.rules()
	if got := decided(r, bashCall("git push origin", Medium)); got != "deny" {
		t.Errorf("deny and allow of git push: %s, want deny", got)
	}
	if got := decided(r, bashCall("rm -rf /tmp/x", High)); got != "ask" {
		t.Errorf("an allow rule on a HIGH command: %s, want ask", got)
	}
	if got := decided(r, bashCall("git push --force", High)); got != "deny" {
		t.Errorf("a deny rule on a HIGH command: %s, want deny", got)
	}
}

func TestWorkspaceRulesOnlyNarrowUntilTrusted(t *testing.T) {
	s := newRulesSetup(t)
	s.writeWorkspace(t, `{"allow": ["run_bash: rm *", "run_bash: make"], "deny": ["run_bash: curl *"]}`)
	r := s.rules()
	if got := decided(r, bashCall("make", Medium)); got != "ask" {
		t.Errorf("untrusted workspace allow: %s, want ask", got)
	}
	if got := decided(r, bashCall("curl example.com", Medium)); got != "deny" {
		t.Errorf("untrusted workspace deny: %s, want deny", got)
	}
	listing := r.List()
	ws := listing.Files[len(listing.Files)-1]
	if ws.Trusted || ws.Hash == "" {
		t.Fatalf("workspace file before trust: %+v", ws)
	}
	if err := r.Trust(ws.Hash); err != nil {
		t.Fatal(err)
	}
	// A new RuleFiles reads the trust from the state directory: a restart.
	r = s.rules()
	if got := decided(r, bashCall("make", Medium)); got != "allow" {
		t.Errorf("trusted workspace allow: %s, want allow", got)
	}
	if got := decided(r, bashCall("rm -rf /", High)); got != "ask" {
		t.Errorf("trusted workspace allow of a HIGH rm: %s, want ask", got)
	}
	// An edit untrusts it; its deny rules still hold.
	s.writeWorkspace(t, `{"allow": ["run_bash: make", "run_bash: curl *"], "deny": ["run_bash: curl *"]}`)
	if got := decided(r, bashCall("make", Medium)); got != "ask" {
		t.Errorf("edited workspace allow: %s, want ask", got)
	}
	if err := r.Trust(ws.Hash); err == nil {
		t.Error("trusting a hash the file no longer has succeeded")
	}
}

func TestSaveSurvivesRestartAndRemove(t *testing.T) {
	s := newRulesSetup(t)
	r := s.rules()
	if err := r.Save(SourceUser, "run_bash: go test ./..."); err != nil {
		t.Fatal(err)
	}
	if err := r.Save(SourceWorkspace, "edit_file: src/a.go"); err != nil {
		t.Fatal(err)
	}
	r = s.rules()
	if got := decided(r, bashCall("go test ./...", Medium)); got != "allow" {
		t.Errorf("saved user rule after restart: %s", got)
	}
	if got := decided(r, Action{Tool: "edit_file", Path: "src/a.go", Risk: Medium}); got != "allow" {
		t.Errorf("saved workspace rule (the user wrote it, so trusted): %s", got)
	}
	fi, err := os.Stat(s.userFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("user rules file: %v, %v", fi, err)
	}
	var id string
	for _, rule := range r.List().Rules {
		if rule.String() == "run_bash: go test ./..." {
			id = rule.ID
		}
	}
	if _, err := r.Remove(id); err != nil {
		t.Fatal(err)
	}
	if got := decided(s.rules(), bashCall("go test ./...", Medium)); got != "ask" {
		t.Errorf("removed rule: %s, want ask", got)
	}
	if got := decided(s.rules(), Action{Tool: "edit_file", Path: "src/a.go", Risk: Medium}); got != "allow" {
		t.Errorf("the other rule went with the removed one: %s", got)
	}
}

func TestSaveToAnUntrustedWorkspaceFileKeepsItUntrusted(t *testing.T) {
	s := newRulesSetup(t)
	s.writeWorkspace(t, `{"allow": ["run_bash: rm *"]}`)
	r := s.rules()
	if err := r.Save(SourceWorkspace, "run_bash: make"); err != nil {
		t.Fatal(err)
	}
	if got := decided(r, bashCall("rm x", Medium)); got != "ask" {
		t.Errorf("saving a rule trusted the repository's rules: %s", got)
	}
}

func TestBrokenFilesSayWhyAndOthersApply(t *testing.T) {
	s := newRulesSetup(t)
	s.writeUser(t, `{"allow": ["run_bash: make", "run_bash: go $(x)"]`) // not JSON
	s.writeWorkspace(t, `{"deny": ["run_bash: curl *", "edit_file: ["]}`)
	r := s.rules()
	if got := decided(r, bashCall("curl x", Medium)); got != "deny" {
		t.Errorf("the workspace's deny with the user's file broken: %s", got)
	}
	if got := decided(r, bashCall("make", Medium)); got != "ask" {
		t.Errorf("a rule of a malformed file applied: %s", got)
	}
	l := r.List()
	if len(l.Files) != 2 || len(l.Files[0].Errors) != 1 || !strings.Contains(l.Files[0].Errors[0], "not a rules file") {
		t.Errorf("user file state: %+v", l.Files)
	}
	if len(l.Files[1].Errors) != 1 || !strings.Contains(l.Files[1].Errors[0], "edit_file: [") {
		t.Errorf("workspace file state: %+v", l.Files[1])
	}
	if err := r.Save(SourceUser, "run_bash: ls"); err == nil || !strings.Contains(err.Error(), "fix it first") {
		t.Errorf("saving over a malformed file: %v", err)
	}
}

func TestHugeAndSymlinkedOutRulesFilesAreRefused(t *testing.T) {
	s := newRulesSetup(t)
	huge := `{"allow": ["run_bash: make"], "x": "` + strings.Repeat("a", maxRulesFile) + `"}`
	s.writeUser(t, huge)
	outside := filepath.Join(t.TempDir(), "rules.json")
	writeFile(t, outside, `{"allow": ["run_bash: make"]}`, 0o644)
	if err := os.Symlink(outside, filepath.Join(s.root, WorkspaceRulesFile)); err != nil {
		t.Fatal(err)
	}
	r := s.rules()
	if got := decided(r, bashCall("make", Medium)); got != "ask" {
		t.Errorf("huge or escaping rules files applied: %s", got)
	}
	l := r.List()
	if len(l.Files[0].Errors) == 0 || !strings.Contains(l.Files[0].Errors[0], "more than") {
		t.Errorf("huge file: %+v", l.Files[0])
	}
	if len(l.Files[1].Errors) == 0 || !strings.Contains(l.Files[1].Errors[0], "escapes") {
		t.Errorf("symlink out: %+v", l.Files[1])
	}
	// Trusting the symlink's target through it is refused too.
	if err := r.Trust(""); err == nil {
		t.Error("trusted a rules file outside the workspace")
	}
}

// approverFunc answers with a fixed decision and records what it saw.
type recordingApprover struct {
	answer Decision
	seen   []Action
}

func (r *recordingApprover) Approve(_ context.Context, a Action, _ bool) (Decision, error) {
	r.seen = append(r.seen, a)
	return r.answer, nil
}

func TestAlwaysAllowSavesAndTheNextPolicyDoesNotAsk(t *testing.T) {
	s := newRulesSetup(t)
	ask := &recordingApprover{answer: AllowAlwaysUser}
	p := NewPolicy(ask)
	p.SetRules(s.rules(), func(err error) { t.Error(err) })
	v, err := p.Check(context.Background(), bashCall("go test ./...", Medium))
	if err != nil || !v.Allowed {
		t.Fatal(v, err)
	}
	if len(ask.seen) != 1 || ask.seen[0].AlwaysRule != "run_bash: go test ./..." {
		t.Fatalf("asked: %+v", ask.seen)
	}
	next := &recordingApprover{answer: Deny}
	p2 := NewPolicy(next)
	p2.SetRules(s.rules(), nil)
	if v, _ := p2.Check(context.Background(), bashCall("go test ./...", Medium)); !v.Allowed || len(next.seen) != 0 {
		t.Errorf("next session: %+v, asked %d times", v, len(next.seen))
	}
	if v, _ := p2.Check(context.Background(), bashCall("go test ./... ; curl x | sh", High)); v.Allowed || len(next.seen) != 1 {
		t.Errorf("compound HIGH command: %+v, asked %d times", v, len(next.seen))
	}
	if next.seen[0].AlwaysRule != "" {
		t.Errorf("Always offered for HIGH: %q", next.seen[0].AlwaysRule)
	}
}

func TestAlwaysOnHighIsOnce(t *testing.T) {
	s := newRulesSetup(t)
	p := NewPolicy(&recordingApprover{answer: AllowAlwaysUser})
	p.SetRules(s.rules(), nil)
	if v, _ := p.Check(context.Background(), bashCall("rm -rf build", High)); !v.Allowed {
		t.Fatal(v)
	}
	if _, err := os.Stat(s.userFile); !os.IsNotExist(err) {
		t.Errorf("an Always answer to a HIGH question saved a rule: %v", err)
	}
}

func TestDenyRuleRefusesWithoutAsking(t *testing.T) {
	s := newRulesSetup(t)
	s.writeUser(t, `{"deny": ["mcp__github__*"]}`)
	ask := &recordingApprover{answer: AllowOnce}
	p := NewPolicy(ask)
	p.SetRules(s.rules(), nil)
	v, _ := p.Check(context.Background(), Action{Tool: "mcp__github__delete_repo", Risk: Medium})
	if v.Allowed || len(ask.seen) != 0 || !strings.Contains(v.Reason, "mcp__github__*") {
		t.Errorf("deny rule: %+v, asked %d", v, len(ask.seen))
	}
}
