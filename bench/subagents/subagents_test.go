// Package subagents measures what subagents save the main conversation
// (issue 28): the same investigation — three questions, each answered by
// reading four files of about 4 KB — done inline by the session, and done
// by three task calls whose children read the files and answer with a
// short summary. Printed per dialect: the main session's requests (their
// count, the bytes of the last one, the bytes of all of them, the share a
// prefix cache serves: each request's longest common prefix with the one
// before it, in the prompt's tools, system prompt and messages, as
// DeepSeek's and Anthropic's caches match prefixes) and the bytes of
// every request, children included (what subagents cost).
//
//	go test -v -run TestSubagentsKeepTheMainRequestSmall ./bench/subagents
package subagents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

const (
	questions   = 3
	filesPerQ   = 4
	fileBytes   = 4000
	question    = "MAIN-QUESTION: how do the three parsers handle errors?"
	summaryText = "Parser %d returns an *ErrSyntax with the line and column; callers wrap it with the file name " +
		"(parse.go:41, parse.go:88); recovery skips to the next statement (recover.go:12)."
)

// workspace writes questions×filesPerQ files of fileBytes each.
func workspace(t *testing.T) string {
	root := t.TempDir()
	for q := range questions {
		for f := range filesPerQ {
			var b strings.Builder
			for i := 0; b.Len() < fileBytes; i++ {
				fmt.Fprintf(&b, "// parser %d file %d line %d: func step%d(in []byte) (Node, error) { return parse(in) }\n", q, f, i, i)
			}
			if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("p%d_%d.go", q, f)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func reads(q int) providertest.Turn {
	var cs []providertest.Call
	for f := range filesPerQ {
		cs = append(cs, providertest.Call{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"p%d_%d.go"}`, q, f)})
	}
	return providertest.Turn{ToolCalls: cs}
}

// inline: a round of four reads per question, then the answer.
func inline() providertest.Script {
	var s providertest.Script
	for q := range questions {
		s = append(s, reads(q))
	}
	return append(s, providertest.Turn{Text: "All three return *ErrSyntax."})
}

// delegated: a task call per question (one at a time, so that the script
// is deterministic: the children's sizes are what is measured, not their
// overlap), each child reading its four files and summarising; then the
// answer.
func delegated() providertest.Script {
	var s providertest.Script
	for q := range questions {
		s = append(s,
			providertest.Turn{ToolCalls: []providertest.Call{{Name: "task",
				Arguments: fmt.Sprintf(`{"description":"parser %d","prompt":"How does parser %d handle errors? Read p%d_*.go."}`, q, q, q)}}},
			reads(q),
			providertest.Turn{Text: fmt.Sprintf(summaryText, q)})
	}
	return append(s, providertest.Turn{Text: "All three return *ErrSyntax."})
}

type measure struct {
	mainRequests          int
	lastMain, allMain     int
	cachedMain            int
	everyRequest, inChild int
}

func run(t *testing.T, dialect string, script providertest.Script) measure {
	srv := providertest.NewServer(t, script, providertest.WithSeed(28))
	opts := provider.HTTPOptions{APIKey: "k", Client: srv.Client(), Dialect: openai.NewDialect(), BaseURL: srv.OpenAIBaseURL()}
	if dialect == anthropic.Name {
		opts.Dialect, opts.BaseURL = anthropic.NewDialect(), srv.AnthropicBaseURL()
	}
	p, err := provider.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(agent.NewTaskTool(nil)); err != nil {
		t.Fatal(err)
	}
	s := agent.NewSession(agent.Config{Provider: p, Model: "deepseek-flash", MaxTokens: 4096, Tools: reg,
		Env:  &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate: permission.NewPolicy(permission.AutoApprover{})}, agent.SystemPrompt(ws, "linux", "/bin/bash"))
	if o := s.Prompt(t.Context(), question, nil); o.StopReason != agent.StopEndTurn {
		t.Fatalf("%s: %+v", dialect, o)
	}
	var m measure
	var prev []byte
	for _, r := range srv.Requests() {
		if r.Rejected != "" {
			t.Fatalf("rejected: %s", r.Rejected)
		}
		m.everyRequest += len(r.Body)
		if !strings.Contains(string(r.Body), "MAIN-QUESTION") {
			m.inChild += len(r.Body)
			continue
		}
		key := promptKey(t, r)
		m.mainRequests++
		m.lastMain = len(r.Body)
		m.allMain += len(key)
		m.cachedMain += commonPrefix(prev, key)
		prev = key
	}
	return m
}

// promptKey is the prompt as a prefix cache sees it: the tools, the system
// prompt, then each message, compacted (the request's other fields, such
// as max_tokens, are no part of it).
func promptKey(t *testing.T, r providertest.Received) []byte {
	var req struct {
		Tools    json.RawMessage   `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := r.Decode(&req); err != nil {
		t.Fatal(err)
	}
	var key bytes.Buffer
	for _, raw := range append([]json.RawMessage{req.Tools, req.System}, req.Messages...) {
		if len(raw) > 0 && json.Compact(&key, raw) == nil {
			key.WriteByte('\n')
		}
	}
	return key.Bytes()
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func TestSubagentsKeepTheMainRequestSmall(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		in, del := run(t, dialect, inline()), run(t, dialect, delegated())
		t.Logf("%s: the main session's requests (inline → subagents)", dialect)
		t.Logf("  requests %d → %d; last request %d B → %d B (%.1fx smaller)", in.mainRequests, del.mainRequests,
			in.lastMain, del.lastMain, float64(in.lastMain)/float64(del.lastMain))
		t.Logf("  the main prompts summed %d B → %d B; prefix-cached share %.0f%% → %.0f%%", in.allMain, del.allMain,
			100*float64(in.cachedMain)/float64(in.allMain), 100*float64(del.cachedMain)/float64(del.allMain))
		t.Logf("  every request, children included: %d B → %d B (children %d B)", in.everyRequest, del.everyRequest, del.inChild)
		if del.lastMain*3 > in.lastMain {
			t.Errorf("%s: the main session's last request is %d B with subagents, %d B inline: not 3x smaller", dialect, del.lastMain, in.lastMain)
		}
	}
}
