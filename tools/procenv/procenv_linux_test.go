//go:build linux

package procenv

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests run this test binary again as a helper process, so that the
// canary is in the helper's real start-up environment block (t.Setenv
// only changes Go's copy).
const (
	helperEnv = "PROCENV_TEST_HELPER"
	canaryEnv = "PROCENV_TEST_CANARY"
	canary    = "canary-7f3a9c1e5b2d4086"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper wipes the canary (mode "wipe") or protects the process first
// (mode "protect+wipe"), then reports on stdout what it and a child reading
// /proc/$PPID/environ see.
func helper(mode string) int {
	kept := strings.Clone(os.Getenv(canaryEnv))
	if strings.HasPrefix(mode, "protect") {
		if err := Protect(); err != nil {
			fmt.Println("protect error:", err)
			return 1
		}
	}
	if err := Wipe([]string{canaryEnv}); err != nil {
		fmt.Println("wipe error:", err)
		return 1
	}
	// Read through the file Protect opened: once non-dumpable, a process
	// not running as root cannot open its own /proc files any more.
	block.Lock()
	self, err := readBlock()
	block.Unlock()
	if err != nil {
		fmt.Println("reading own environment block:", err)
		return 1
	}
	child, childErr := exec.Command("sh", "-c", `cat /proc/$PPID/environ`).CombinedOutput()
	fmt.Printf("kept=%s\n", kept)
	fmt.Printf("self-has-canary=%v\n", bytes.Contains(self, []byte(canary)))
	fmt.Printf("self-has-name=%v\n", bytes.Contains(self, []byte(canaryEnv+"=")))
	fmt.Printf("child-has-canary=%v\n", bytes.Contains(child, []byte(canary)))
	fmt.Printf("child-err=%v\n", childErr != nil)
	fmt.Printf("go-env-intact=%v\n", os.Getenv("PROCENV_TEST_OTHER") == "other-value-stays")
	return 0
}

func runHelper(t *testing.T, bin, mode string, prefix ...string) map[string]string {
	t.Helper()
	args := append(prefix, bin, "-test.run=^$")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, canaryEnv+"="+canary, "PROCENV_TEST_OTHER=other-value-stays")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper %s: %v\n%s", mode, err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		got[k] = v
	}
	return got
}

// Wipe zeroes the value in the block /proc/<pid>/environ shows, for the
// process itself and for a child reading its parent's (we run as root in
// CI, so no permission stands in the way), and leaves a copy made before
// intact, and the other variables too.
func TestWipeHidesTheValueFromEnviron(t *testing.T) {
	got := runHelper(t, os.Args[0], "wipe")
	want := map[string]string{
		"kept": canary, "self-has-canary": "false", "self-has-name": "true",
		"child-has-canary": "false", "go-env-intact": "true",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// Protect makes the process non-dumpable: a child running as the same user
// (nobody, via setpriv) cannot open its parent's environ at all, and the wipe still works afterwards through the
// file opened before.
func TestProtectKeepsSameUserChildrenOut(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the helper as nobody")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv not installed")
	}
	dir, err := os.MkdirTemp("", "procenv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "procenv.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	asNobody := []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}

	// Without Protect, a same-user child reads the parent's environ (the
	// wipe alone still hides the value): the control for the case below.
	open := runHelper(t, bin, "wipe", asNobody...)
	if open["child-err"] != "false" || open["child-has-canary"] != "false" {
		t.Fatalf("unprotected helper: %v", open)
	}
	got := runHelper(t, bin, "protect+wipe", asNobody...)
	if got["child-err"] != "true" {
		t.Errorf("a same-user child read the protected parent's environ: %v", got)
	}
	if got["self-has-canary"] != "false" || got["kept"] != canary {
		t.Errorf("wipe after Protect: %v", got)
	}
}

func TestEnvBounds(t *testing.T) {
	start, end, err := envBounds()
	if err != nil {
		t.Fatal(err)
	}
	environ, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Fatal(err)
	}
	if int(end-start) != len(environ) {
		t.Errorf("bounds %d..%d span %d bytes, /proc/self/environ has %d", start, end, end-start, len(environ))
	}
}
