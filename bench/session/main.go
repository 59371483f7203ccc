// Command session measures what checkpoints cost a stored session (issue
// 15): the bytes a session adds to the state directory (its file and its
// checkpoints' content) over 20 one-line edit_file calls on a 0.2 MB
// file, each its own prompt; and the time and peak memory of resuming a
// session that made three edits of a 20 MB file. It talks to a scripted
// model in-process and edits through the disk Documents, so the numbers
// are the agent's and the store's. bench/session/run.sh builds it from
// this tree and from a base commit and prints both.
//
//	session -growth                  prints the growth line
//	session -prepare DIR             stores the 20 MB session in DIR, prints its id
//	session -resume DIR -id ID       resumes it (a fresh process: its peak RSS is the resume's)
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

func main() {
	growth := flag.Bool("growth", false, "measure the state directory's growth over 20 edits of a 0.2 MB file")
	prepare := flag.String("prepare", "", "store a session with three edits of a 20 MB file in `dir`")
	resume := flag.String("resume", "", "resume the session -id stored in `dir`")
	id := flag.String("id", "", "the session to resume")
	flag.Parse()
	var err error
	switch {
	case *growth:
		err = runGrowth()
	case *prepare != "":
		err = runPrepare(*prepare)
	case *resume != "":
		err = runResume(*resume, *id)
	default:
		err = fmt.Errorf("want -growth, -prepare DIR or -resume DIR -id ID")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "session bench:", err)
		os.Exit(1)
	}
}

// editor is the scripted model: a user prompt "edit N" answers with one
// edit_file call changing line N of big.txt; a tool result, with a short
// text that ends the turn.
type editor struct{ calls int }

func (e *editor) Stream(_ context.Context, req provider.Request) iter.Seq[provider.Event] {
	last := req.Messages[len(req.Messages)-1]
	e.calls++
	return func(yield func(provider.Event) bool) {
		if last.Role != provider.RoleUser {
			_ = yield(provider.Event{Type: provider.EventText, Text: "done"}) &&
				yield(provider.Event{Type: provider.EventDone, StopReason: provider.StopEndTurn})
			return
		}
		var n int
		fmt.Sscanf(last.Text, "edit %d", &n)
		args, _ := json.Marshal(map[string]string{"path": "big.txt",
			"old_string": fmt.Sprintf("line %07d ", n), "new_string": fmt.Sprintf("LINE %07d ", n)})
		id := fmt.Sprintf("call_%d", e.calls)
		_ = yield(provider.Event{Type: provider.EventToolUseStart, ToolCallID: id, ToolName: "edit_file"}) &&
			yield(provider.Event{Type: provider.EventToolUseArgs, ToolCallID: id, Text: string(args)}) &&
			yield(provider.Event{Type: provider.EventDone, StopReason: provider.StopToolUse})
	}
}

// bigText is about size bytes of numbered lines, each line unique.
func bigText(size int) string {
	var b strings.Builder
	b.Grow(size + 100)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "line %07d the quick brown fox jumps over the lazy dog\n", i)
	}
	return b.String()
}

// edits runs prompts "edit N" for lines (each one edit_file call) in a
// session stored in stateDir, on a workspace holding a file of size bytes.
func edits(stateDir string, size int, lines []int) (*agent.Session, []time.Duration, error) {
	root, err := os.MkdirTemp("", "session-bench-ws-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(bigText(size)), 0o644); err != nil {
		return nil, nil, err
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		return nil, nil, err
	}
	store, err := agent.NewStore(stateDir, nil)
	if err != nil {
		return nil, nil, err
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		return nil, nil, err
	}
	s := agent.NewSession(agent.Config{Provider: &editor{}, Model: "bench", Tools: reg, Store: store,
		Env: &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}}}, "You edit files.")
	var took []time.Duration
	for _, n := range lines {
		start := time.Now()
		o := s.Prompt(context.Background(), fmt.Sprintf("edit %d", n), nil)
		took = append(took, time.Since(start))
		if o.StopReason != agent.StopEndTurn {
			return nil, nil, fmt.Errorf("prompt %d: %s %v", n, o.StopReason, o.Err)
		}
	}
	for _, m := range s.History() {
		if m.Role == provider.RoleTool && m.IsError {
			return nil, nil, fmt.Errorf("a tool call failed: %s", m.Text)
		}
	}
	return s, took, nil
}

func runGrowth() error {
	dir, err := os.MkdirTemp("", "session-bench-state-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	const size = 200 << 10
	lines := make([]int, 20)
	for i := range lines {
		lines[i] = 100 + i*150 // spread over the file
	}
	s, _, err := edits(dir, size, lines)
	if err != nil {
		return err
	}
	file, content, err := stateBytes(dir, s.ID())
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "growth: 20 edits of a %.2f MB file: session file %.3f MB + content %.3f MB = %.3f MB\n",
		mb(size), mb(file), mb(content), mb(file+content))
	return nil
}

// stateBytes is the size of session id's file and of everything else
// the store holds for it (its content directory, when there is one).
func stateBytes(dir, id string) (file, content int64, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if filepath.Base(path) == id+".jsonl" {
			file += fi.Size()
		} else if strings.Contains(path, id) {
			content += fi.Size()
		}
		return nil
	})
	return file, content, err
}

func runPrepare(dir string) error {
	const size = 20 << 20
	s, took, err := edits(dir, size, []int{1000, 150000, 300000})
	if err != nil {
		return err
	}
	file, content, err := stateBytes(dir, s.ID())
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "prepared: 3 edits of a %.0f MB file (prompts took %v): session file %.1f MB + content %.1f MB\n",
		mb(size), took, mb(file), mb(content))
	fmt.Fprintln(os.Stdout, s.ID())
	return nil
}

func runResume(dir, id string) error {
	store, err := agent.NewStore(dir, nil)
	if err != nil {
		return err
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	s, err := agent.ResumeSession(agent.Config{Provider: &editor{}, Model: "bench", Store: store}, id)
	if err != nil {
		return err
	}
	cps := s.Checkpoints()
	elapsed := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "resume: %d checkpoints in %.1f ms; peak RSS of the process %.1f MB; allocated %.1f MB\n",
		len(cps), float64(elapsed.Microseconds())/1000, float64(ru.Maxrss)/1024, mb(int64(after.TotalAlloc-before.TotalAlloc)))
	return nil
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }
