package release

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The npm package's bin shim (npm/agent-lsp/bin/agent-lsp.js) runs the
// binary of the platform package npm installed beside it, with our
// arguments and stdio, exits with its status, and passes SIGTERM on: an
// editor that ends the daemon it started through `npx agent-lsp` ends the
// binary, not only Node. The platform package here holds a shell script
// in the binary's place, so the test sees what the shim hands it.
func TestNpmShimRunsThePlatformBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in binary is a shell script")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node is needed: %v", err)
		}
		t.Skipf("no node: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	target, err := exec.CommandContext(ctx, node, "-p", "process.platform + '-' + process.arch").Output()
	if err != nil {
		t.Fatal(err)
	}
	// node_modules as npm lays it out: the shim's package and the platform one.
	project := t.TempDir()
	shim := filepath.Join(project, "node_modules", "agent-lsp", "bin", "agent-lsp.js")
	platform := filepath.Join(project, "node_modules", "@agent-lsp", strings.TrimSpace(string(target)))
	src, err := os.ReadFile(filepath.Join("..", "..", "npm", "agent-lsp", "bin", "agent-lsp.js"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, shim, string(src), 0o755)
	writeFile(t, filepath.Join(platform, "package.json"), `{"name":"@agent-lsp/`+strings.TrimSpace(string(target))+`","version":"0.0.0"}`, 0o644)
	binary := filepath.Join(platform, "bin", "agent-lsp")

	t.Run("arguments, output and status", func(t *testing.T) {
		writeFile(t, binary, "#!/bin/sh\necho \"args: $*\"\nexit 7\n", 0o755)
		out, err := exec.CommandContext(ctx, node, shim, "--version", "two words").Output()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 7 || string(out) != "args: --version two words\n" {
			t.Errorf("shim: %q, %v; want the binary's output and its status 7", out, err)
		}
	})

	t.Run("SIGTERM reaches the binary", func(t *testing.T) {
		// The stand-in says ready, then waits; on TERM it ends its sleep,
		// says so and exits 0.
		writeFile(t, binary, "#!/bin/sh\nsleep 60 & p=$!\ntrap 'kill $p; echo got TERM; exit 0' TERM\necho ready\nwait $p\necho not signalled\n", 0o755)
		cmd := exec.CommandContext(ctx, node, shim)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		if !lines.Scan() || lines.Text() != "ready" {
			t.Fatalf("the binary did not start through the shim: %q", lines.Text())
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		var rest []string
		for lines.Scan() {
			rest = append(rest, lines.Text())
		}
		err = cmd.Wait()
		if strings.Join(rest, "\n") != "got TERM" || err != nil {
			t.Errorf("after SIGTERM to the shim: binary said %q, shim %v; want the binary to get TERM and the shim to exit 0", rest, err)
		}
	})
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}
