// Command agent-lsp is an AI coding agent behind the editor.
//
//	agent-lsp            serve LSP on stdin/stdout (an editor starts this)
//	agent-lsp chat       the terminal chat
//	agent-lsp version    print the version (--version too)
//
// This package is wiring and flags only: the behaviour lives in the
// packages it connects.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// it comes from the module's build information. It is the only place the
// version is kept: the front ends receive buildVersion() as an option
// (lsp.Options.Version, acp.Options.Version).
var version = ""

func buildVersion() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return versionOf(info)
}

// versionOf reads a version from build information: the module's version
// (go install …@vX, or the pseudo-version the go command derives from the
// checkout), else dev-<revision>, with -dirty for uncommitted changes, from
// the VCS stamp. The go command leaves the version "(devel)" and stamps
// only the revision when it cannot derive one (the module is not at the
// repository's root, the revision is unknown to its lookup), and a
// binary that cannot say which commit it is cannot be reported against.
func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	revision, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return "dev"
	}
	const shortRevision = 12 // as in Go's pseudo-versions
	if len(revision) > shortRevision {
		revision = revision[:shortRevision]
	}
	if modified {
		return "dev-" + revision + "-dirty"
	}
	return "dev-" + revision
}

const usage = `agent-lsp: an AI coding agent behind the editor

usage:
  agent-lsp [serve flags]     serve LSP on stdin/stdout (editors start this)
  agent-lsp chat [flags]      chat in the terminal (agent-lsp chat -h for flags)
  agent-lsp acp [flags]       serve the Agent Client Protocol on stdin/stdout (Zed, JetBrains, ACP clients)
  agent-lsp mcp-demo          serve the demo MCP server on stdio (--mcp=demo mounts it)
  agent-lsp version           print the version (--version too)
  agent-lsp help              this text and the serve flags (--help, -h too)
`

func main() {
	// First, before anything else runs: started as the sandbox launcher,
	// this process applies the sandbox and becomes bash (never returns).
	sandbox.Main()
	// Started by an ACP client's terminal as the stub of a command the
	// agent handed it (sandbox_attach.go).
	if isSandboxAttach(os.Args) {
		os.Exit(runSandboxAttach(os.Args[2:], os.Stdout, os.Stderr))
	}
	protectProcess() // before any child or secret read: secrets.go
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if cmd == "" && len(args) > 0 {
		switch args[0] {
		case "--version", "-version", "-v":
			cmd = "version"
		}
	}
	switch cmd {
	case "chat":
		return runChat(args, stdin, stdout, stderr)
	case "acp":
		return runACP(args, stdin, stdout, stderr)
	case "", "serve":
		return runServe(args, stdin, stdout, stderr)
	case "mcp-demo":
		return runMCPDemo(args, stdin, stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "agent-lsp %s\n", buildVersion())
		return 0
	case "help":
		return runServe([]string{"-h"}, stdin, stdout, stderr) // the usage and the serve flags, on stdout
	default:
		fmt.Fprintf(stderr, "agent-lsp: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// terminationContext is cancelled on SIGTERM or SIGHUP, so that every child
// process dies with us.
func terminationContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
}
