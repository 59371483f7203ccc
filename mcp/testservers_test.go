package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// The test binary doubles as every MCP server the tests need, broken ones
// included: re-executed with testServerEnv set, TestMain runs that server on
// stdin/stdout instead of the tests. Re-executing is faster than building
// separate programs and keeps each behaviour next to its test.
const testServerEnv = "AGENT_LSP_MCP_TEST_SERVER"

// grandchildPIDFileEnv names the file the "spawner" server writes its
// grandchild's pid to.
const grandchildPIDFileEnv = "AGENT_LSP_MCP_TEST_GRANDCHILD_PID_FILE"

// flakyMarkerEnv names the file whose absence makes the "flaky" server
// fail (it creates the file and exits); present, it runs flakyThenEnv's mode.
const (
	flakyMarkerEnv = "AGENT_LSP_MCP_TEST_FLAKY_MARKER"
	flakyThenEnv   = "AGENT_LSP_MCP_TEST_FLAKY_THEN"
)

func TestMain(m *testing.M) {
	// Servers run under this binary as their process tree's init
	// (containTree).
	sandbox.Main()
	if mode := os.Getenv(testServerEnv); mode != "" {
		os.Exit(runTestServer(mode))
	}
	code := m.Run()
	// No test may leave a server process behind: every child of the test
	// binary must be gone once the managers are closed.
	if left := liveChildren(os.Getpid()); len(left) > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: server processes left behind: %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// liveChildren lists the child processes of pid that are not gone (by
// await's one rule: a zombie is gone). /proc is read only to find them.
func liveChildren(pid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		child, err := strconv.Atoi(e.Name())
		if err == nil && len(fields) > 1 && fields[1] == strconv.Itoa(pid) && !await.Gone(child) {
			out = append(out, e.Name()+" "+s[:strings.LastIndexByte(s, ')')+1])
		}
	}
	return out
}

func runTestServer(mode string) int {
	ctx := context.Background()
	fmt.Fprintf(os.Stderr, "test server %q pid=%d starting\n", mode, os.Getpid())
	var err error
	switch mode {
	case "demo":
		err = demo.Serve(ctx, os.Stdin, os.Stdout)
	case "catalog":
		err = demo.ServeCatalog(ctx, os.Stdin, os.Stdout)
	case "nonjson":
		// A debug print to stdout, the classic stdio server bug.
		fmt.Fprintln(os.Stdout, "Server starting... listening on stdio")
		err = demo.Serve(ctx, os.Stdin, os.Stdout)
	case "broken":
		err = brokenServer().Run(ctx, &sdk.StdioTransport{})
	case "legacy":
		err = legacyServer().Run(ctx, &sdk.StdioTransport{})
	case "dies":
		// Exits before saying anything: a server that cannot start.
		fmt.Fprintln(os.Stderr, "fatal: cannot start (on purpose)")
		return 4
	case "flaky":
		// Fails its first start, then works: a server whose start races
		// something (a port, a lock, a package download).
		marker := os.Getenv(flakyMarkerEnv)
		if _, err := os.Stat(marker); err != nil {
			_ = os.WriteFile(marker, nil, 0o644)
			fmt.Fprintln(os.Stderr, "fatal: first start fails (on purpose)")
			return 4
		}
		return runTestServer(os.Getenv(flakyThenEnv))
	case "silent":
		// Reads its input and never answers anything.
		buf := make([]byte, 4096)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				return 0
			}
		}
	case "spawner", "setsid-spawner":
		// Starts a long-lived grandchild, in the server's process group
		// or (setsid-spawner) in a session of its own, then serves:
		// Close must reach the grandchild either way.
		child := exec.Command("sleep", "300")
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: mode == "setsid-spawner"}
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "spawn:", err)
			return 1
		}
		_ = os.WriteFile(os.Getenv(grandchildPIDFileEnv), []byte(strconv.Itoa(hostChildPID(child.Process.Pid))), 0o644)
		err = demo.Serve(ctx, os.Stdin, os.Stdout)
	default:
		fmt.Fprintf(os.Stderr, "unknown test server mode %q\n", mode)
		return 2
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "server error:", err)
		return 1
	}
	return 0
}

// hostPID is the test server's own id in the test's PID namespace: a
// contained server (containTree) lives in a namespace of its own, but
// /proc is the host's, whose "self" is the host id.
func hostPID() int {
	target, err := os.Readlink("/proc/self")
	if err != nil {
		return -1
	}
	pid, _ := strconv.Atoi(target)
	return pid
}

// hostChildPID is the host id of the test server's child that it knows
// as nsPID: the child whose NSpid line (its ids from the host's namespace
// down to its own) ends with nsPID.
func hostChildPID(nsPID int) int {
	me := strconv.Itoa(hostPID())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var ppid, nspid []string
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "PPid:" {
				ppid = f[1:]
			} else if len(f) > 1 && f[0] == "NSpid:" {
				nspid = f[1:]
			}
		}
		if len(ppid) == 1 && ppid[0] == me && len(nspid) > 0 && nspid[len(nspid)-1] == strconv.Itoa(nsPID) {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	return -1
}

// hostParentPID is the test server's parent as the test sees it.
func hostParentPID() int {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return -1
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// brokenServer misbehaves on request, one tool per failure.
func brokenServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "broken", Version: "1"}, nil)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	sdk.AddTool(s, &sdk.Tool{Name: "ok", Description: "answers ok"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			// The parent too: under a contained tree the manager knows
			// the tree's init (containTree).
			return text(fmt.Sprintf("ok from pid %d under %d", hostPID(), hostParentPID())), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "exits in the middle of the call"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fatal: simulated crash in the middle of a call")
			os.Exit(3)
			return nil, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "never answers"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			time.Sleep(time.Hour) // the behaviour under test: a stuck handler that ignores ctx
			return text("woke up"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "big", Description: "returns 5 MB of text"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			line := strings.Repeat("x", 99) + "\n"
			return text("BEGIN\n" + strings.Repeat(line, 5<<20/len(line)) + "END"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "reports a tool error"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "disk quota exceeded"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "add_tool", Description: "adds the tool late_tool (tools/list_changed follows)"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			sdk.AddTool(s, &sdk.Tool{Name: "late_tool", Description: "added at run time"},
				func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
					return text("late tool works"), nil, nil
				})
			return text("added late_tool"), nil, nil
		})
	yes := true
	sdk.AddTool(s, &sdk.Tool{Name: "wipe", Description: "destructive", Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return text("wiped"), nil, nil
		})
	return s
}

// legacyServer answers the initialize handshake but lets server/discover
// go unanswered, like a pre-2026 server that ignores unknown methods.
func legacyServer() *sdk.Server {
	s := demo.NewServer(nil)
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "server/discover" {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// testServer is the config of the test binary as the given server.
func testServer(name, mode string) ServerConfig {
	return ServerConfig{Name: name, Type: TypeStdio, Command: os.Args[0], Env: map[string]string{testServerEnv: mode}, Source: "test"}
}

// flakyServer is the config of a server that fails its first start and
// then runs as the given mode.
func flakyServer(t *testing.T, name, then string) ServerConfig {
	cfg := testServer(name, "flaky")
	cfg.Env[flakyMarkerEnv] = filepath.Join(t.TempDir(), "started-once")
	cfg.Env[flakyThenEnv] = then
	return cfg
}
