package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// racer swaps ws/dir between the real directory and a symlink to a
// directory outside the workspace, until ws/stop exists; it writes how
// many swaps it made to ws/swaps now and then. The symlink stays for a
// moment and the real directory for a few: the sleeps are the racer's
// rhythm (an edit finds the directory real often enough to be applied,
// and the symlink appears while it is on its way), not a wait.
const racer = `
import os, sys, time
out, n = sys.argv[1], 0
while not os.path.exists("stop"):
    os.rename("dir", "dir.real")
    os.symlink(out, "dir")
    time.sleep(0.0002)
    os.unlink("dir")
    os.rename("dir.real", "dir")
    time.sleep(0.0006)
    n += 1
    with open("swaps.tmp", "w") as f:
        f.write(str(n))
    os.rename("swaps.tmp", "swaps")
`

// guardedEditor is an editorDocuments behind an in-process editor that
// saves every applied edit by path (lsptest SaveEdits, as VS Code's
// autoSave), with a real sandboxed process runner, which it returns.
func guardedEditor(t testing.TB, root string, settings sandbox.Settings) (*editorDocuments, *tools.ProcessRunner) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srvIn, edOut := io.Pipe()
	edIn, srvOut := io.Pipe()
	log := zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	if _, bench := t.(*testing.B); bench {
		log = zap.NewNop()
	}
	conn := jsonrpc2.NewConn(newStream(srvIn, srvOut, log))
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return reply(ctx, nil, nil) // didSave and the like: nothing to do here
	})
	ed := lsptest.Connect(ctx, struct {
		io.Reader
		io.Writer
		io.Closer
	}{edIn, edOut, edIn}, lsptest.Handlers{SaveEdits: true})
	t.Cleanup(func() {
		_ = ed.Close()
		_ = conn.Close()
		_ = srvIn.Close()
		_ = edIn.Close()
	})
	s := newServer(ctx, conn, Options{Logger: log, StateDir: t.TempDir()})
	s.client = clientCaps{applyEdit: true, documentChanges: true, createFiles: true, deleteFiles: true}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	box, err := sandbox.New(settings, ws.Roots())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = box.Close() })
	if !box.Status().Active {
		t.Fatalf("no sandbox on this machine: %s", box.Status().Summary())
	}
	t.Logf("sandbox: %s", box.Status().Summary())
	runner := tools.NewProcessRunner(box)
	return newEditorDocuments(s, ws, runner), runner
}

// stoppedBelow lists the processes below pid (this test) that are stopped.
func stoppedBelow(t *testing.T, pid int) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	parent, state := map[int]int{}, map[int]byte{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		ppid, _ := strconv.Atoi(f[1])
		parent[p], state[p] = ppid, f[0][0]
	}
	var stopped []string
	for p, st := range state {
		for a := parent[p]; a > 1; a = parent[a] {
			if a == pid {
				if st == 'T' || st == 't' {
					stopped = append(stopped, fmt.Sprintf("%d (%c)", p, st))
				}
				break
			}
		}
	}
	return stopped
}

// The attack of issue 23 item 7: a sandboxed command swaps a workspace
// directory for a symlink to a directory outside, in a loop, while the
// agent applies batches of new files under it through the editor, which
// saves them by path. Nothing may land outside; every batch lands inside
// or fails with a clear error; no process is left stopped.
//
// Both with the namespaces (the freeze finds a command's processes below
// its PID namespace's init) and with Landlock alone (below the launcher's
// subreaper), as on a kernel without unprivileged user namespaces.
func TestEditorEditsCannotLandOutsideWhileACommandRaces(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is the racer; not installed")
	}
	t.Run("namespaces", func(t *testing.T) { raceEditorEdits(t, python, sandbox.Settings{}) })
	t.Run("landlock only", func(t *testing.T) { raceEditorEdits(t, python, sandbox.Settings{NoNamespaces: true}) })
}

func raceEditorEdits(t *testing.T, python string, settings sandbox.Settings) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	docs, runner := guardedEditor(t, root, settings)

	raceCtx, stopRacer := context.WithCancel(context.Background())
	racerDone := make(chan tools.CommandOutcome, 1)
	go func() {
		out, err := runner.RunCommand(raceCtx, tools.CommandRequest{
			Command: python + " -c '" + racer + "' " + outside, Dir: root, Timeout: 5 * time.Minute})
		if err != nil {
			out.Output = err.Error()
		}
		racerDone <- out
	}()
	defer func() {
		stopRacer()
		<-racerDone
	}()
	swaps := func() int {
		data, _ := os.ReadFile(filepath.Join(root, "swaps"))
		n, _ := strconv.Atoi(string(data))
		return n
	}
	// The racer's progress is a file: state outside the process, polled.
	await.Poll(t, 30*time.Second, "the racer to start swapping", func() bool { return swaps() > 0 })

	const batches = 200
	var applied, refused, failed int
	reasons := map[string]int{}
	var landed []string
	for i := range batches {
		var edits []tools.FileEdit
		var names []string
		for _, f := range []string{"a", "b"} {
			name := fmt.Sprintf("f%03d%s.txt", i, f)
			names = append(names, name)
			p := filepath.Join(root, "dir", name)
			edits = append(edits, tools.FileEdit{Tool: "write_file", Before: tools.Doc{Path: p}, After: "written by batch " + name + "\n"})
		}
		swapped := swaps()
		err := docs.ApplyAll(t.Context(), edits)
		if err != nil {
			// As the model would, try again only after a while: here,
			// once the racer has moved on, which also shows the freeze
			// let it go. (Back to back, the freezes can starve it where
			// it left the symlink, and every edit is refused.)
			await.Poll(t, 20*time.Second, "the racer to swap again", func() bool { return swaps() > swapped })
		}
		switch {
		case err == nil:
			applied++
			landed = append(landed, names...)
		case strings.Contains(err.Error(), "refused:") || strings.Contains(err.Error(), "outside the workspace") ||
			strings.Contains(err.Error(), "path escapes"): // os.Root's, reading the file before the edit
			refused++
		default:
			failed++
			reasons[firstWords(err.Error())]++
		}
	}
	before := swaps()
	if err := os.WriteFile(filepath.Join(root, "stop"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := await.Event(t, racerDone, "the racer to stop")
	racerDone <- out // for the deferred wait
	t.Logf("%d batches: %d applied, %d refused (symlink out), %d failed %v; the racer swapped %d times (%d before the last batch)",
		batches, applied, refused, failed, reasons, swaps(), before)
	if out.ExitCode != 0 {
		t.Fatalf("the racer ended with %d: %s", out.ExitCode, out.Output)
	}

	escaped, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(escaped) > 0 {
		var names []string
		for _, e := range escaped {
			names = append(names, e.Name())
		}
		t.Errorf("%d files were written outside the workspace by the editor: %v", len(escaped), names)
	}
	for _, name := range landed {
		data, err := os.ReadFile(filepath.Join(root, "dir", name))
		if err != nil || string(data) != "written by batch "+name+"\n" {
			t.Errorf("applied %s is not inside: %q, %v", name, data, err)
		}
	}
	if applied == 0 {
		t.Errorf("no batch was applied: the guard must not refuse everything")
	}
	for reason := range reasons {
		if !clearFailure(reason) {
			t.Errorf("a batch failed without a clear reason: %s", reason)
		}
	}
	if stopped := stoppedBelow(t, os.Getpid()); len(stopped) > 0 {
		t.Errorf("processes left stopped: %v", stopped)
	}
}

// firstWords shortens an error to what identifies its kind.
func firstWords(s string) string {
	if i := strings.Index(s, ": "); i > 0 {
		if j := strings.Index(s[i+2:], ": "); j > 0 {
			return s[:i+2+j]
		}
	}
	return s
}

// clearFailure: a batch may fail because the racer had the directory
// away at that moment (the editor could not save, the file could not be
// read); each says so.
func clearFailure(reason string) bool {
	for _, ok := range []string{"saving", "no such file", "not a directory", "changed since it was read", "did not apply", "readlink"} {
		if strings.Contains(reason, ok) {
			return true
		}
	}
	return false
}

// The same attack as an ordinary user: the daemon is not root, and
// (until user namespaces work for it) its commands run under Landlock
// alone, without a PID namespace, so the freeze finds a command's
// processes through the launcher's subreaper instead of the namespace.
func TestEditorEditsCannotLandOutsideAsNobody(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to nobody (CI runs as root)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv (util-linux) not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// nobody must be able to execute the test binary: a copy out of the
	// build cache, in a directory it can enter.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "lsp.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		bin, "-test.run=^TestEditorEditsCannotLandOutsideWhileACommandRaces$", "-test.v", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "TMPDIR=/tmp"}
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestEditorEditsCannotLandOutsideWhileACommandRaces")) ||
		bytes.Count(out, []byte("batches:")) != 2 {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "batches:") || strings.Contains(line, "sandbox:") {
			t.Log("as nobody:", strings.TrimSpace(line))
		}
	}
}

// What the guard costs an applied edit (a new file, saved by the editor):
// with no command running, the freeze is a lock; with three busy ones, it
// lists /proc until all their processes are stopped.
func BenchmarkGuardedApply(b *testing.B) {
	for _, running := range []int{0, 3} {
		b.Run(strconv.Itoa(running)+" commands running", func(b *testing.B) {
			root := b.TempDir()
			docs, runner := guardedEditor(b, root, sandbox.Settings{})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{}, running)
			defer func() {
				cancel()
				for range running {
					<-done
				}
			}()
			for i := range running {
				ready := filepath.Join(root, "ready"+strconv.Itoa(i))
				go func() {
					defer func() { done <- struct{}{} }()
					_, _ = runner.RunCommand(ctx, tools.CommandRequest{
						Command: "(while :; do :; done) & touch " + ready + "; wait", Dir: root, Timeout: time.Hour})
				}()
				// The command's file is state outside the process: polled.
				await.Poll(b, 20*time.Second, "a busy command to start", func() bool {
					_, err := os.Stat(ready)
					return err == nil
				})
			}
			n := 0
			for b.Loop() {
				n++
				p := filepath.Join(root, "f"+strconv.Itoa(n)+".txt")
				edit := tools.FileEdit{Tool: "write_file", Before: tools.Doc{Path: p}, After: "x\n"}
				if err := docs.ApplyAll(b.Context(), []tools.FileEdit{edit}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// initialize hands the editor's Documents the runner the sessions run
// their commands with: the commands the guard freezes are those.
func TestInitializeGuardsEditsWithTheSessionsRunner(t *testing.T) {
	s := newServer(t.Context(), nil, Options{Logger: zaptest.NewLogger(t), StateDir: t.TempDir(),
		NewProvider: func(provider.Config) (provider.Provider, error) { return nil, errors.New("no model in this test") }})
	var p initializeParams
	p.RootURI = string(pathToURI(t.TempDir()))
	if _, err := s.initialize(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.sandbox.box.Close()
		_ = s.ws.Close()
	})
	if s.sandbox.runner == nil || s.docs.commands != tools.CommandFreezer(s.sandbox.runner) {
		t.Fatalf("the editor's Documents freeze %v, the sessions run commands with %v", s.docs.commands, s.sandbox.runner)
	}
}
