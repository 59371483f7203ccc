package term

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"

	"github.com/agent-lsp/agent-lsp/tools"
)

// Options configure one terminal chat: what cmd/agent-lsp read from its
// flags and the environment.
type Options struct {
	Stdin  io.Reader // the prompts, and the answers to questions
	Stdout io.Writer // the answer; in a conversation, everything else too
	Stderr io.Writer // in one-shot mode, everything but the answer; errors
	Logger *zap.Logger
	// NoColor turns ANSI styles (and rendered markdown) off; they are off
	// anyway when Stdout is no terminal or NO_COLOR is set.
	NoColor bool
	// Prompt, when set, is a one-shot: answer it, then return; stdout
	// carries the answer only.
	Prompt string

	// The model: its configuration, the settings of it the user chose
	// (control.Options.UserModel), where key variables are read, and how
	// servers are asked for context windows (nil: never).
	Model     provider.Config
	UserModel map[string]string
	Getenv    func(string) string
	Windows   *provider.WindowCache
	// RecordPath appends every exchange to a file; ReplayPath answers
	// from one, and, once a tool call is denied, from ReplayDeniedPath
	// (the offline demo's other branch). RawDump gets every raw SSE line.
	RecordPath, ReplayPath, ReplayDeniedPath string
	RawDump                                  io.Writer

	// The workspace, the command sandbox, and who approves.
	Dir              string
	Sandbox          sandbox.Settings
	SandboxAutoAllow bool
	Yes              bool // approve every action without asking (CRITICAL ones are still refused)
	WebFetch         tools.WebFetchOptions
	Hooks            hooks.Config // the user's hooks (--settings)
	// MCP lists the --mcp servers; TrustWorkspace starts the workspace's
	// .mcp.json servers without asking, for this run.
	MCP            []string
	TrustWorkspace bool

	// Sessions: where they are stored (StateDir; NoSave: nowhere), the
	// stored one to open (Resume by id, Continue this workspace's latest;
	// neither: a new one), and how a new one starts.
	StateDir string
	NoSave   bool
	Resume   string
	Continue bool
	Mode     agent.Mode // a resumed session in another mode says so
	Budget   int
	Keep     int
	// Worktree, when set, starts the new session in a git worktree of
	// the workspace's repository, of this name ("": a fresh one)
	// (--worktree [name]); WorktreeDir is where worktrees are made ("":
	// beside the repository).
	Worktree    *string
	WorktreeDir string
	// SpendLimit is the sessions' spend caps (--max-usd, --max-usd-day,
	// --max-tokens-session).
	SpendLimit agent.SpendLimit

	// PermissionsFile is the user's permission rules file ("": in the
	// user's config directory).
	PermissionsFile string
}

// List is `agent-lsp chat --list`: the stored sessions as the controller
// lists them, this workspace's first.
func List(o Options) int {
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	store, err := openStore(o)
	if err == nil && store == nil {
		err = errors.New("--list: no session store (--no-save)")
	}
	if err != nil {
		fmt.Fprintf(o.Stderr, "agent-lsp chat: %v\n", err)
		return 1
	}
	ctl := control.New(control.Options{Store: store, Logger: o.Logger})
	defer ctl.Close() //nolint:errcheck // it loaded nothing
	WriteSessions(o.Stdout, ctl.List(), WorkspaceRoot(o.Dir), time.Now())
	return 0
}

// WorkspaceRoot is the root a workspace made of dir has (as stored with
// its sessions); dir itself when it cannot be made absolute.
func WorkspaceRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}
