package agent_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// envKillProgress set tells the child that fd 3 is a pipe on which it
// reports its progress, one line an event, for the parent to wait on.
const envKillProgress = "AGENT_LSP_KILL_PROGRESS"

// killChild runs the test named by run again as a child process that
// talks to the fake model at base and stores its session in storeDir.
type killChild struct {
	cmd      *exec.Cmd
	output   strings.Builder
	progress chan string // the child's progress lines; closed when it is gone
}

func startKillChild(t *testing.T, run, dialect, base, storeDir, root string) *killChild {
	t.Helper()
	c := &killChild{progress: make(chan string, 16)}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c.cmd = exec.Command(os.Args[0], "-test.run=^"+run+"$")
	c.cmd.Env = append(os.Environ(), envKillHelper+"="+dialect, envKillURL+"="+base,
		envKillStore+"="+storeDir, envKillRoot+"="+root, envKillProgress+"=1")
	c.cmd.Stdout, c.cmd.Stderr = &c.output, &c.output
	c.cmd.ExtraFiles = []*os.File{w}
	err = c.cmd.Start()
	w.Close() // the child holds its copy: EOF comes when it is gone
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	go func() {
		defer close(c.progress)
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			c.progress <- sc.Text()
		}
	}()
	t.Cleanup(func() { c.kill(t) })
	return c
}

// kill ends the child with SIGKILL: no deferred code runs, nothing is flushed.
func (c *killChild) kill(t *testing.T) {
	if c.cmd.ProcessState != nil {
		return
	}
	if err := c.cmd.Process.Kill(); err != nil {
		t.Errorf("kill: %v", err)
	}
	_ = c.cmd.Wait()
	for range c.progress { // the reader ends at EOF
	}
}

// waitFor waits until the child has reported every one of lines (in any
// order), failing when it ends first or 20 s pass.
func (c *killChild) waitFor(t *testing.T, lines ...string) {
	t.Helper()
	missing := map[string]bool{}
	for _, l := range lines {
		missing[l] = true
	}
	ctx, cancel := context.WithTimeout(context.Background(), await.Long)
	defer cancel()
	for len(missing) > 0 {
		select {
		case l, ok := <-c.progress:
			if !ok {
				c.kill(t) // reaped: its output is complete
				t.Fatalf("the child ended before reporting %v; its output:\n%s", lines, c.output.String())
			}
			delete(missing, l)
		case <-ctx.Done():
			c.kill(t)
			t.Fatalf("the child never reported %v; its output:\n%s", lines, c.output.String())
		}
	}
}

// reportProgress is the child's side of waitFor.
func reportProgress(line string) error {
	if os.Getenv(envKillProgress) == "" {
		return nil
	}
	_, err := progressFile().WriteString(line + "\n")
	return err
}

// progressFile is the child's progress pipe, opened once: an *os.File
// made for each line would close descriptor 3 when the collector
// finalizes it, and the parent would read the child as gone.
var progressFile = sync.OnceValue(func() *os.File { return os.NewFile(3, "progress") })

// Progress lines of the children.
const (
	progressBlocked    = "run_bash blocked"
	progressEditLanded = "edit landed"
)

// resultStored is the progress line for a tool call whose result the
// child has stored (the agent emits tool_result after writing it).
func resultStored(callID string) string { return "result stored " + callID }

// reportResults reports each tool result as it is emitted.
var reportResults = agent.ListenerFunc(func(e agent.Event) {
	if e.Kind == agent.EventToolResult {
		_ = reportProgress(resultStored(e.ToolCallID))
	}
})

// blockingGate allows every action but run_bash, which it holds like an
// approval nobody answers: it reports that and waits for ctx.
type blockingGate struct{}

func (blockingGate) Check(ctx context.Context, a permission.Action) (permission.Verdict, error) {
	if a.Tool != "run_bash" {
		return permission.Verdict{Allowed: true}, nil
	}
	if err := reportProgress(progressBlocked); err != nil {
		return permission.Verdict{}, err
	}
	<-ctx.Done()
	return permission.Verdict{Reason: "cancelled"}, context.Cause(ctx)
}

func childConfig(t *testing.T) agent.Config {
	t.Helper()
	p, err := provider.NewHTTP(provider.HTTPOptions{Dialect: dialectOf(os.Getenv(envKillHelper)),
		BaseURL: os.Getenv(envKillURL), APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := agent.NewStore(os.Getenv(envKillStore), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := builtinConfig(t, p, os.Getenv(envKillRoot))
	cfg.Store = store
	cfg.Gate = blockingGate{}
	cfg.Env.Docs = stuckDocs{Documents: cfg.Env.Docs}
	return cfg
}

// stuckDocs lands an edit of Calculator.java, then hangs as an editor
// that never acknowledges it would, after reporting it: the process dies
// between the change landing and its result being stored.
type stuckDocs struct {
	tools.Documents
}

func (d stuckDocs) Apply(ctx context.Context, edit tools.FileEdit) error {
	if err := d.Documents.Apply(ctx, edit); err != nil || !strings.HasSuffix(edit.Before.Path, "Calculator.java") {
		return err
	}
	if err := reportProgress(progressEditLanded); err != nil {
		return err
	}
	<-ctx.Done()
	return context.Cause(ctx)
}

// resumeFrom opens the store in dir as a fresh process would and resumes
// its only session against the fake model at base.
func resumeFrom(t *testing.T, srv *providertest.Server, dialect, base, dir, root, wantTitle string) *agent.Session {
	t.Helper()
	sessions, err := agent.ListSessions(dir)
	if err != nil || len(sessions) != 1 || sessions[0].Title != wantTitle {
		t.Fatalf("sessions = %+v, %v; want one titled %q", sessions, err, wantTitle)
	}
	store, err := agent.NewStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.NewHTTP(provider.HTTPOptions{Dialect: dialectOf(dialect), BaseURL: base, APIKey: "test-key", Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := builtinConfig(t, p, root)
	cfg.Store = store
	s, err := agent.ResumeSession(cfg, sessions[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func assertAllAccepted(t *testing.T, srv *providertest.Server) {
	t.Helper()
	for i, rq := range srv.Requests() {
		if rq.Rejected != "" {
			t.Errorf("request %d refused by the strict fake (%d): %s", i, rq.Status, rq.Rejected)
		}
	}
}

const bashInterrupted = "interrupted: the agent stopped before this call finished; check the files the command may have changed: echo hi > out.txt"

// TestKillDuringToolCallsAndResume kills a process while one call of a
// round waits (an approval nobody answers) after the other two finished:
// the resumed history keeps the two real results, the file the write made
// and the result saying so, and answers the third as interrupted, naming
// its command; the strict fake accepts it in both dialects.
func TestKillDuringToolCallsAndResume(t *testing.T) {
	if os.Getenv(envKillHelper) != "" {
		s := agent.NewSession(childConfig(t), "You are a test agent.")
		s.Prompt(t.Context(), "Note it down.", reportResults) // blocks in run_bash's gate until killed
		t.Fatal("the blocked round returned")
	}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Reasoning: "Read, write, run.", ToolCalls: []providertest.Call{
					{ID: "c_read", Name: "read_file", Arguments: `{"path":"src/main/java/demo/Main.java"}`},
					{ID: "c_write", Name: "write_file", Arguments: `{"path":"notes.txt","content":"NOTE-MARKER\n"}`},
					{ID: "c_bash", Name: "run_bash", Arguments: `{"command":"echo hi > out.txt"}`},
				}, Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 30}},
				{Text: "The run was cut; notes.txt is written.", Usage: provider.Usage{PromptTokens: 1900, CompletionTokens: 9}},
			}, providertest.WithSeed(21))
			base := srv.OpenAIBaseURL()
			if d == anthropic.Name {
				base = srv.AnthropicBaseURL()
			}
			storeDir, root := t.TempDir(), javaProject(t)
			child := startKillChild(t, "TestKillDuringToolCallsAndResume", d, base, storeDir, root)
			child.waitFor(t, progressBlocked, resultStored("c_read"), resultStored("c_write"))
			child.kill(t)

			if data, err := os.ReadFile(filepath.Join(root, "notes.txt")); err != nil || string(data) != "NOTE-MARKER\n" {
				t.Fatalf("notes.txt = %q, %v", data, err)
			}
			s := resumeFrom(t, srv, d, base, storeDir, root, "Note it down.")
			h := s.History()
			if got := roleList(h); got != "system,user,assistant,tool,tool,tool" {
				t.Fatalf("resumed history = %s", got)
			}
			read, write, bash := h[3], h[4], h[5]
			if read.ToolCallID != "c_read" || read.IsError || !strings.Contains(read.Text, "System.out.println") {
				t.Errorf("read_file result = %+v", read)
			}
			if write.ToolCallID != "c_write" || write.IsError || !strings.Contains(write.Text, "notes.txt") {
				t.Errorf("write_file result = %+v, want the real one saying the file was written", write)
			}
			if bash.ToolCallID != "c_bash" || !bash.IsError || bash.Text != bashInterrupted {
				t.Errorf("run_bash result = %+v, want the interrupted error", bash)
			}

			o := s.Prompt(t.Context(), "What happened?", nil)
			if o.StopReason != agent.StopEndTurn || o.Text != "The run was cut; notes.txt is written." {
				t.Fatalf("prompt after resume: %+v", o)
			}
			assertAllAccepted(t, srv)
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			body := string(reqs[1].Body)
			for _, want := range []string{"interrupted: the agent stopped before this call finished", "changed: echo hi", "NOTE-MARKER"} {
				if !strings.Contains(body, want) {
					t.Errorf("the request after the restart lacks %q:\n%s", want, body)
				}
			}
		})
	}
}

// TestKillWhileAnEditLandsAndResume kills a process after a write_file
// changed the file but before its result was stored (the only call of its
// round): the resumed history answers it as interrupted, naming the file,
// and the prompt's checkpoint holds the text from before the change, which
// was stored before the change landed.
func TestKillWhileAnEditLandsAndResume(t *testing.T) {
	if os.Getenv(envKillHelper) != "" {
		s := agent.NewSession(childConfig(t), "You are a test agent.")
		s.Prompt(t.Context(), "Break it.", nil) // blocks in stuckDocs until killed
		t.Fatal("the stuck edit returned")
	}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "c_edit", Name: "write_file",
					Arguments: `{"path":"src/main/java/demo/Calculator.java","content":"BROKEN\n"}`}},
					Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 20}},
				{Text: "I will check Calculator.java.", Usage: provider.Usage{PromptTokens: 1700, CompletionTokens: 7}},
			}, providertest.WithSeed(23))
			base := srv.OpenAIBaseURL()
			if d == anthropic.Name {
				base = srv.AnthropicBaseURL()
			}
			storeDir, root := t.TempDir(), javaProject(t)
			child := startKillChild(t, "TestKillWhileAnEditLandsAndResume", d, base, storeDir, root)
			child.waitFor(t, progressEditLanded)
			child.kill(t)

			calculator := filepath.Join(root, "src/main/java/demo/Calculator.java")
			if data, err := os.ReadFile(calculator); err != nil || string(data) != "BROKEN\n" {
				t.Fatalf("Calculator.java = %q, %v: the edit did not land", data, err)
			}
			s := resumeFrom(t, srv, d, base, storeDir, root, "Break it.")
			h := s.History()
			if got := roleList(h); got != "system,user,assistant,tool" {
				t.Fatalf("resumed history = %s", got)
			}
			want := "interrupted: the agent stopped before this call finished; check the file " +
				"src/main/java/demo/Calculator.java (write_file was working on it)"
			if edit := h[3]; edit.ToolCallID != "c_edit" || !edit.IsError || edit.Text != want {
				t.Errorf("the cut write's result = %+v, want %q", edit, want)
			}
			if cps := s.Checkpoints(); len(cps) != 1 || !checkpointHolds(s, cps[0], calculator, "class Calculator") {
				t.Errorf("checkpoints = %+v, want Calculator.java's text before the edit", cps)
			}
			if o := s.Prompt(t.Context(), "What now?", nil); o.StopReason != agent.StopEndTurn {
				t.Fatalf("prompt after resume: %+v", o)
			}
			assertAllAccepted(t, srv)
		})
	}
}

// TestKillInFirstModelCallAndResume kills a process while the first model
// call of its session streams: the prompt was stored as it started, so the
// session is listed under it and resumes, and the strict fake accepts the
// next prompt.
func TestKillInFirstModelCallAndResume(t *testing.T) {
	if os.Getenv(envKillHelper) != "" {
		s := agent.NewSession(childConfig(t), "You are a test agent.")
		s.Prompt(t.Context(), "Plan the refactor.", nil) // the model never answers
		t.Fatal("the stalled round returned")
	}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Text: "never finished", Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 2}},
				{Text: "Here is the plan.", Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 5}},
			}, providertest.WithSeed(22))
			base := srv.OpenAIBaseURL()
			if d == anthropic.Name {
				base = srv.AnthropicBaseURL()
			}
			storeDir, root := t.TempDir(), t.TempDir()
			child := startKillChild(t, "TestKillInFirstModelCallAndResume", d, base, storeDir, root)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			if err := srv.WaitRequests(ctx, 1); err != nil {
				t.Fatalf("the first model call: %v; child output:\n%s", err, child.output.String())
			}
			child.kill(t)

			s := resumeFrom(t, srv, d, base, storeDir, root, "Plan the refactor.")
			if got := roleList(s.History()); got != "system,user" {
				t.Fatalf("resumed history = %s", got)
			}
			if o := s.Prompt(t.Context(), "Are you there?", nil); o.StopReason != agent.StopEndTurn || o.Text != "Here is the plan." {
				t.Fatalf("prompt after resume: %+v", o)
			}
			assertAllAccepted(t, srv)
			if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "Plan the refactor.") {
				t.Errorf("the request after the restart lacks the first prompt")
			}
		})
	}
}

var _ tools.Gate = blockingGate{}

// checkpointHolds reports whether c recorded path, before its change, as
// a text with text in it (read from s's content store: stored durably
// before the change landed).
func checkpointHolds(s *agent.Session, c agent.Checkpoint, path, text string) bool {
	for _, f := range c.Files {
		if f.Path != path || !f.Existed {
			continue
		}
		before, err := s.CheckpointText(f.Before)
		if err == nil && strings.Contains(before, text) {
			return true
		}
	}
	return false
}
