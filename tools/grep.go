package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agent-lsp/agent-lsp/permission"
)

const (
	grepMaxMatches   = 200      // matching lines shown to the model
	grepMaxContext   = 10       // context lines each side, at most
	grepMaxLineBytes = 300      // longer lines are cut around their match
	grepMaxOutput    = 30 << 10 // bytes of output, under the registry's default cut
)

type grepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path,omitempty"`
	Glob       string `json:"glob,omitempty"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`
	Context    int    `json:"context,omitempty"`
}

type grepTool struct{}

// NewGrep returns the grep tool: a regular-expression search of file
// contents across the workspace, .gitignore-aware.
func NewGrep() Tool { return grepTool{} }

func (grepTool) Name() string { return "grep" }

func (grepTool) Description() string {
	return "Search file contents with an RE2 regex (Go syntax: no lookaround/backreferences), line by line. " +
		"Output `path:line: text`; context lines `path-line- text`. " +
		"Skips binary, .git and .gitignore'd files. Shows at most 200 matching lines (long lines cut) and counts the rest. " +
		"Use it to find definitions and usages; use glob to find files by name."
}

func (grepTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"pattern":{"type":"string","description":"RE2 regex"},` +
		`"path":{"type":"string","description":"File or directory (default: workspace root)"},` +
		`"glob":{"type":"string","description":"File filter, e.g. *.go or src/**/*.ts; without / it matches file names"},` +
		`"ignore_case":{"type":"boolean"},` +
		`"context":{"type":"integer","description":"Lines of context around each match (max 10)"}},` +
		`"required":["pattern"],"additionalProperties":false}`)
}

func (grepTool) Describe(_ context.Context, raw json.RawMessage, env *Env) (permission.Action, error) {
	args, abs, err := grepParse(raw, env)
	if err != nil {
		return permission.Action{}, err
	}
	rel := env.Workspace.Rel(abs)
	a := permission.Action{
		Tool: "grep", Summary: fmt.Sprintf("grep %q in %s", args.Pattern, rel), Scope: "grep",
		Risk: permission.Low, ReadOnly: true, Path: rel,
	}
	if CredentialRead(abs) { // searched on purpose: asked (a walk from above skips it: runSearch)
		a.Risk, a.Reasons = permission.High, []string{reasonCredentialRead}
	}
	return a, nil
}

func (grepTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	args, abs, err := grepParse(raw, env)
	if err != nil {
		return Result{}, err
	}
	m, err := compileLineMatcher(args.Pattern, args.IgnoreCase)
	if err != nil {
		return Result{}, err
	}
	c := &grepCollector{ws: env.Workspace, context: args.Context, re: m.re}
	stats, err := runSearch(ctx, env.Workspace, abs, m, args.Glob, 0, grepMaxMatches, c.add)
	if err != nil {
		return Result{}, fmt.Errorf("grep: %w", err)
	}
	if stats.MatchedLines == 0 {
		where := env.Workspace.Rel(abs)
		if args.Glob != "" {
			where += " (glob " + args.Glob + ")"
		}
		return Result{Output: fmt.Sprintf("no matches for %q in %s (%d files searched)", args.Pattern, where, stats.FilesSearched)}, nil
	}
	return Result{Output: c.render(stats)}, nil
}

func grepParse(raw json.RawMessage, env *Env) (grepArgs, string, error) {
	var args grepArgs
	if err := decodeArgs(raw, &args); err != nil {
		return args, "", err
	}
	if args.Pattern == "" {
		return args, "", fmt.Errorf("pattern is empty")
	}
	if args.Context < 0 || args.Context > grepMaxContext {
		return args, "", fmt.Errorf("context must be between 0 and %d, got %d", grepMaxContext, args.Context)
	}
	// Compile here too, so a bad regex or glob fails before anyone is asked.
	if _, err := compileLineMatcher(args.Pattern, args.IgnoreCase); err != nil {
		return args, "", err
	}
	if _, err := globFilter(args.Glob); err != nil {
		return args, "", err
	}
	if args.Path == "" {
		args.Path = "."
	}
	abs, err := env.Workspace.Resolve(args.Path)
	if err != nil {
		return args, "", err
	}
	return args, abs, nil
}
