package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// ldflagsVersion is what TestLdflagsVersionReachesEveryFrontEnd builds in:
// nothing else could produce it.
const ldflagsVersion = "9.8.7-ldflags-test"

// The one documented way to set the version, go build -ldflags
// "-X main.version=…", reaches --version, the LSP serverInfo and the ACP
// agentInfo of the built binary.
func TestLdflagsVersionReachesEveryFrontEnd(t *testing.T) {
	if os.Getenv(lsptest.BinaryEnv) != "" {
		t.Skipf("%s names a prebuilt binary; this test builds its own with -ldflags", lsptest.BinaryEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "agent-lsp")
	build := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X main.version="+ldflagsVersion, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -ldflags: %v\n%s", err, out)
	}

	t.Run("--version", func(t *testing.T) {
		for _, arg := range []string{"--version", "version"} {
			out, err := exec.CommandContext(ctx, bin, arg).Output()
			if err != nil || string(out) != "agent-lsp "+ldflagsVersion+"\n" {
				t.Errorf("%s: %q, %v", arg, out, err)
			}
		}
	})

	t.Run("LSP serverInfo", func(t *testing.T) {
		cmd, stdin, stdout, stderr := startBinary(t, ctx, bin, "--api-key-env", "none", "--state-dir", t.TempDir())
		ed := lsptest.Connect(ctx, pipeRW{Reader: stdout, Writer: stdin, closers: []io.Closer{stdin, stdout}}, lsptest.Handlers{})
		raw, err := ed.Initialize(ctx, t.TempDir(), lsptest.Capabilities{}, nil)
		if err != nil {
			t.Fatalf("initialize: %v\nstderr:\n%s", err, stderr.String())
		}
		var res struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if res.ServerInfo.Name != "agent-lsp" || res.ServerInfo.Version != ldflagsVersion {
			t.Errorf("serverInfo = %+v, want agent-lsp %s", res.ServerInfo, ldflagsVersion)
		}
		if err := ed.Call(ctx, "shutdown", nil, nil); err != nil {
			t.Fatalf("shutdown: %v", err)
		}
		_ = ed.Notify(ctx, "exit", nil)
		_ = ed.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("daemon exit: %v\nstderr:\n%s", err, stderr.String())
		}
	})

	t.Run("ACP agentInfo", func(t *testing.T) {
		cmd, stdin, stdout, stderr := startBinary(t, ctx, bin, "acp", "--api-key-env", "none", "--state-dir", t.TempDir(), "--sandbox", "off")
		conn := sdk.NewClientSideConnection(&acpRecorder{}, stdin, stdout)
		init, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
		if err != nil || init.AgentInfo == nil {
			t.Fatalf("initialize: %v %+v\nstderr:\n%s", err, init, stderr.String())
		}
		if init.AgentInfo.Name != "agent-lsp" || init.AgentInfo.Version != ldflagsVersion {
			t.Errorf("agentInfo = %+v, want agent-lsp %s", *init.AgentInfo, ldflagsVersion)
		}
		_ = stdin.Close() // the client goes: the agent ends
		if err := cmd.Wait(); err != nil {
			t.Errorf("agent-lsp acp exited: %v\nstderr:\n%s", err, stderr.String())
		}
	})
}

// startBinary starts bin with args on pipes, with no key and no model
// server: initialize needs neither. The process is killed at the end of the
// test if it is still running.
func startBinary(t *testing.T, ctx context.Context, bin string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, *lockedText) {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = lsptest.IsolatedEnv(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedText{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, stdin, stdout, stderr
}

// A plain go build in a git checkout says which commit it is: the go
// command's version from VCS (v0.0.0-<time>-<revision>) when it stamps
// one, else dev-<revision> (buildVersion).
func TestBuildInACheckoutNamesItsRevision(t *testing.T) {
	if os.Getenv(lsptest.BinaryEnv) != "" {
		t.Skipf("%s names a prebuilt binary; this test builds its own", lsptest.BinaryEnv)
	}
	rev, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "agent-lsp")
	build := exec.CommandContext(ctx, "go", "build", "-buildvcs=true", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), strings.TrimSpace(string(rev))) {
		t.Errorf("--version = %q, %v; want the revision %s in it", out, err, rev)
	}
}
