//go:build linux

package tools

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// grepRSSChildEnv names the directory the child of
// TestGrepMemoryIsBoundedOn2GBFiles greps.
const grepRSSChildEnv = "AGENT_LSP_TEST_GREP_RSS_DIR"

const twoGB = 2 << 30

// textHoleBytes is the size of the file with text at its start, a hole and
// a match near its end: over the old reader's 256 MiB limit, yet quick to
// read through (bench/grep/rss.sh measures a 2 GB one).
const textHoleBytes = 320 << 20

// TestGrepMemoryIsBoundedOn2GBFiles greps four 2 GB sparse files and a
// 320 MiB file with text at its start, a hole and a match near its end, in
// a child process (so its peak RSS is the grep's alone), and bounds the
// peak: a few MiB per reader, not the file.
func TestGrepMemoryIsBoundedOn2GBFiles(t *testing.T) {
	if dir := os.Getenv(grepRSSChildEnv); dir != "" {
		grepRSSChild(t, dir)
		return
	}
	dir := t.TempDir()
	for i := range 4 {
		writeSparse(t, filepath.Join(dir, fmt.Sprintf("sparse%d.dat", i)), twoGB, nil)
	}
	head := strings.Repeat("some text before the hole\n", 2000)
	writeSparse(t, filepath.Join(dir, "text.log"), textHoleBytes, map[int64]string{
		0:                   head,
		textHoleBytes - 100: "\nneedle near the end\n",
	})
	cmd := exec.Command(os.Args[0], "-test.run=^TestGrepMemoryIsBoundedOn2GBFiles$", "-test.v")
	cmd.Env = append(os.Environ(), grepRSSChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var before, peak int
	var output string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "RSS "); i >= 0 {
			fmt.Sscanf(line[i:], "RSS before=%d peak=%d", &before, &peak)
		}
		if i := strings.Index(line, "OUTPUT "); i >= 0 {
			output = line[i+len("OUTPUT "):]
		}
	}
	if peak == 0 {
		t.Fatalf("child reported no RSS:\n%s", out)
	}
	t.Logf("grep over four 2 GB sparse files and a 320 MiB text file (%d readers): peak RSS %d KiB, %d KiB before the grep", defaultWalkers(), peak, before)
	wantLine := fmt.Sprintf("text.log:%d: needle near the end", strings.Count(head, "\n")+2)
	if !strings.Contains(output, wantLine) {
		t.Errorf("grep output %q lacks %q", output, wantLine)
	}
	// Per reader: one buffer of at most maxScanLineBytes (4 MiB), plus
	// the garbage of growing it; the old reader took 256 MiB per file.
	if limit := before + 48<<10; peak > limit {
		t.Errorf("peak RSS %d KiB, want at most %d KiB", peak, limit)
	}
}

// grepRSSChild runs the grep tool over dir and prints its peak RSS.
func grepRSSChild(t *testing.T, dir string) {
	before := vmHWM(t)
	ws, err := NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	env := &Env{Workspace: ws, Docs: &DiskDocuments{Workspace: ws}}
	res, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("OUTPUT %s\n", strings.ReplaceAll(res.Output, "\n", " | "))
	fmt.Printf("RSS before=%d peak=%d\n", before, vmHWM(t))
}

// vmHWM is the process's peak resident set size in KiB.
func vmHWM(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
