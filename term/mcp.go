package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// mcpStartWait bounds how long the chat waits for MCP servers before the
// first prompt; a server still starting then mounts its tools later.
const mcpStartWait = world.MCPStartWait

// lineReader is where the trust questions read their answers: the
// approver's reader, which owns the terminal's input.
type lineReader interface {
	ReadLine(ctx context.Context) (string, error)
}

// mcpMount is what mountMCP needs besides the workspace: which servers,
// how the workspace's are trusted, and where the trust questions are
// asked.
type mcpMount struct {
	flags []string // --mcp values: the user's, trusted
	// trustWorkspace (--trust-workspace) trusts every .mcp.json entry of
	// the workspace for this run without asking.
	trustWorkspace bool
	yes            bool                // --yes was given: it does not trust workspace configuration
	stateDir       string              // where "always" decisions live ("": the default)
	getenv         func(string) string // what a configuration's ${VAR} reads
	answers        lineReader
	out            io.Writer
}

// mountMCP starts the MCP servers the options name, asking on the
// terminal about the workspace's; nil when there are none.
func (t *terminal) mountMCP(ctx context.Context, ws *tools.Workspace, reg *tools.Registry) *mcp.Manager {
	o := t.o
	return mountMCPServers(ctx, ws, reg, mcpMount{flags: o.MCP, trustWorkspace: o.TrustWorkspace, yes: o.Yes,
		stateDir: o.StateDir, getenv: o.Getenv, answers: t.approver, out: visibleWriter{t.Progress()}}, o.Logger)
}

// mountMCPServers starts the configured MCP servers (--mcp flags, and the
// workspace's .mcp.json entries the user trusts), waits for them, and
// prints one line per server: MCP[<server>] mounted N tools.
// Each workspace entry not trusted always is asked about on the terminal
// (allow, always, deny); no answer is deny. Bad configuration is reported
// and skipped; it never stops the chat.
func mountMCPServers(ctx context.Context, ws *tools.Workspace, reg *tools.Registry, o mcpMount, log *zap.Logger) *mcp.Manager {
	roots := ws.Roots()
	loaded := mcp.LoadConfig(roots[0], nil, o.flags, o.getenv)
	for _, err := range loaded.Errors {
		fmt.Fprintf(o.out, "MCP config: %v\n", err)
	}
	servers := loaded.Servers
	if len(loaded.Workspace) > 0 {
		servers = append(servers, trustWorkspaceEntries(ctx, loaded.Workspace, o)...)
	}
	if len(servers) == 0 {
		return nil
	}
	m := mcp.NewManager(reg, roots, log)
	m.Start(ctx, servers)
	wctx, cancel := context.WithTimeout(ctx, mcpStartWait)
	defer cancel()
	_ = m.WaitReady(wctx) // a server still starting is reported as such below
	for _, st := range m.Status() {
		switch st.State {
		case mcp.StateReady:
			fmt.Fprintf(o.out, "MCP[%s] mounted %d tools (protocol %s)\n", st.Name, st.Tools, st.ProtocolVersion)
		case mcp.StateDown:
			fmt.Fprintf(o.out, "MCP[%s] down: %s\n", st.Name, st.Error)
		default:
			fmt.Fprintf(o.out, "MCP[%s] still starting; its tools mount when it is ready\n", st.Name)
		}
	}
	return m
}

// trustWorkspaceEntries decides about each workspace entry and returns
// the configurations of those trusted, expanded only now.
func trustWorkspaceEntries(ctx context.Context, entries []mcp.WorkspaceEntry, o mcpMount) []mcp.ServerConfig {
	store := chatTrustStore(o.stateDir, o.out)
	if o.yes && !o.trustWorkspace {
		fmt.Fprintln(o.out, "(--yes approves tool actions, not the workspace's .mcp.json: use --trust-workspace for that)")
	}
	var out []mcp.ServerConfig
	storeWarned := false
	for _, e := range entries {
		decision := mcp.TrustAllow
		switch verdict, err := storeCheck(store, e); {
		case o.trustWorkspace:
		case verdict.Trusted:
			decision = mcp.TrustAlways
		default:
			if err != nil && !storeWarned {
				storeWarned = true
				fmt.Fprintf(o.out, "MCP trust: %v\n", err)
			}
			e = e.WithChanges(verdict.Changes) // the question says what changed
			var aerr error
			if decision, aerr = askTrust(ctx, e, o.answers, o.out); aerr != nil {
				fmt.Fprintf(o.out, "MCP[%s] not started: %v\n", e.Name, aerr)
				continue
			}
			// What starts must be what was asked about.
			if _, changes := e.Rebind(); decision != mcp.TrustDeny && len(changes) > 0 {
				fmt.Fprintf(o.out, "MCP[%s] not started: %s\n", e.Name, permission.VisibleLine(strings.Join(changes, "; "), 0))
				continue
			}
			if decision == mcp.TrustAlways && store != nil {
				if err := store.Remember(e, time.Now()); err != nil {
					fmt.Fprintf(o.out, "MCP trust: not remembered, allowed for this run only: %v\n", err)
				}
			}
		}
		if decision == mcp.TrustDeny {
			fmt.Fprintf(o.out, "MCP[%s] not started: denied (from the workspace's %s)\n", e.Name, mcp.ConfigFileName)
			continue
		}
		cfg, err := e.Config(tools.Getenv)
		if err != nil {
			fmt.Fprintf(o.out, "MCP config: %v\n", err)
			continue
		}
		out = append(out, cfg)
	}
	return out
}

// chatTrustStore is the store of "always" decisions under the state
// directory; nil (nothing remembered) when there is none.
func chatTrustStore(stateDir string, out io.Writer) *mcp.TrustStore {
	if stateDir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			fmt.Fprintf(out, "MCP trust: decisions cannot be remembered: %v\n", err)
			return nil
		}
		stateDir = d
	}
	return mcp.NewTrustStore(stateDir)
}

func storeCheck(store *mcp.TrustStore, e mcp.WorkspaceEntry) (mcp.TrustVerdict, error) {
	if store == nil {
		return mcp.TrustVerdict{}, nil
	}
	return store.Check(e)
}

// maxTrustAttempts is how many unreadable answers are tolerated before
// denying.
const maxTrustAttempts = 3

// askTrust puts one workspace entry to the user: y allows it for this
// run, a always for this workspace (while the entry is unchanged), n or an
// empty line denies. The end of the input denies.
func askTrust(ctx context.Context, e mcp.WorkspaceEntry, answers lineReader, out io.Writer) (mcp.TrustDecision, error) {
	fmt.Fprintf(out, "╭─ workspace MCP server\n│ %s\n╰─\n", strings.ReplaceAll(e.Describe(), "\n", "\n│ "))
	for range maxTrustAttempts {
		fmt.Fprint(out, "[y] allow  [a] allow always for this workspace  [n] deny > ")
		line, err := answers.ReadLine(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return mcp.TrustDeny, ctx.Err()
			}
			if !errors.Is(err, io.EOF) {
				return mcp.TrustDeny, fmt.Errorf("reading the answer: %w", err)
			}
			fmt.Fprintln(out, "\n(no answer: denied)")
			return mcp.TrustDeny, nil
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return mcp.TrustAllow, nil
		case "a", "always":
			return mcp.TrustAlways, nil
		case "n", "no", "":
			return mcp.TrustDeny, nil
		}
		fmt.Fprintln(out, "please answer y, a or n")
	}
	fmt.Fprintln(out, "(no valid answer: denied)")
	return mcp.TrustDeny, nil
}

// visibleWriter writes through permission.VisibleOutput: what the
// workspace's .mcp.json and MCP servers make the chat print (a server's
// name, why it is down) is shown, never obeyed by the terminal.
type visibleWriter struct{ w io.Writer }

func (v visibleWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(v.w, permission.VisibleOutput(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}
