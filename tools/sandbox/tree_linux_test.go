package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// Attack: a program run through ContainTree starts a daemon with setsid
// (its own session and process group, out of reach of a group kill) and
// exits. The daemon dies with the tree's init. Meanwhile the program saw
// its real user id and its own environment: nothing else is confined.
func TestContainTreeEndsSetsidDaemons(t *testing.T) {
	dir := t.TempDir()
	pidFile, fifo := filepath.Join(dir, "daemon.pid"), filepath.Join(dir, "ready")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The daemon reads /proc/self/stat through the shell's own redirect:
	// its id as the test sees it (/proc is the host's), kept by exec.
	script := `setsid sh -c 'read -r pid rest < /proc/self/stat; echo $pid > "$1"; echo > "$2"; exec sleep 300' x "$1" "$2" >/dev/null 2>&1 &
read -r line < "$2"
id -u; echo "$TREE_TEST_VAR"; cat "$3"`
	marker := filepath.Join(dir, "real-file")
	if err := os.WriteFile(marker, []byte("on the real file system"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", script, "sh", pidFile, fifo, marker)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TREE_TEST_VAR=its own"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second // a daemon holding the output must not hold Wait
	started, err := ContainTree(t.Context(), cmd)
	if err != nil {
		t.Fatal(err)
	}
	startErr := cmd.Start()
	started()
	if startErr != nil {
		t.Fatal(startErr)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	want := strconv.Itoa(os.Getuid()) + "\nits own\non the real file system"
	if got := strings.TrimSpace(out.String()); got != want {
		t.Errorf("the program saw %q, want %q", got, want)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	daemon, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || daemon <= 1 {
		t.Fatalf("daemon pid %q: %v", data, err)
	}
	await.Exited(t, 5*time.Second, daemon)
	if !await.Gone(daemon) {
		_ = unix.Kill(daemon, unix.SIGKILL) // leave nothing behind
	}
}

// The same as an ordinary user whose process is non-dumpable, as the
// daemon is: the user namespace's maps are written through the gate.
func TestContainTreeAsOrdinaryUser(t *testing.T) {
	out := runAsNobody(t, "^TestContainTreeEndsSetsidDaemons$")
	if !bytes.Contains(out, []byte("--- PASS: TestContainTreeEndsSetsidDaemons")) {
		t.Errorf("as an ordinary user:\n%s", out)
	}
}
