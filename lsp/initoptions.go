package lsp

import "encoding/json"

// initOptions are the initializationOptions, decoded once, here, into
// this one type: the chat flags' settings. Absent fields keep the
// daemon's configuration.
type initOptions struct {
	Provider    *string         `json:"provider"`
	BaseURL     *string         `json:"baseURL"`
	Model       *string         `json:"model"`
	APIKeyEnv   *string         `json:"apiKeyEnv"`
	ServerKind  *string         `json:"serverKind"` // provider.ServerKinds; "": detect from baseURL
	Free        *bool           `json:"free"`       // the model's server costs nothing (a local one)
	AutoApprove *bool           `json:"autoApprove"`
	MCPServers  json.RawMessage `json:"mcpServers"` // mcp.LoadConfig reads the entries
	Budget      *int            `json:"budget"`
	// ContextWindow is the model's window in tokens (0: discover it).
	ContextWindow *int            `json:"contextWindow"`
	Keep          *int            `json:"keep"`
	Sandbox       *sandboxOptions `json:"sandbox"`
	// Completion is the inline completion model (inline_completion_config.go).
	Completion *completionSetting `json:"completion"`
	// Mode and Models are the controller's: the initial mode, the model
	// presets (parseControlOptions checks them).
	Mode   *string       `json:"mode"`
	Models []modelPreset `json:"models"`
	// WorkspaceTrust "restricted" is the read-only agent of an untrusted folder (restricted.go).
	WorkspaceTrust *string `json:"workspaceTrust"`
	// ProtectedFiles extend the protected workspace files
	// (permission.NewProtectedFiles): HIGH to write, read-only to commands.
	ProtectedFiles []string `json:"protectedFiles"`
	// WebFetch is web_fetch's settings: {allowPrivateNetwork}.
	WebFetch *webFetchSetting `json:"webFetch"`
	// Hooks are the user's hooks, Claude Code's `hooks` object (package hooks).
	Hooks json.RawMessage `json:"hooks"`
	// WorktreeDir is where sessions' git worktrees are made ("": beside
	// the repository; relative: to its top level).
	WorktreeDir *string `json:"worktreeDir"`
	// SpendLimit is a session's spend caps (spend.go).
	SpendLimit *spendLimitOption `json:"spendLimit"`
}

// webFetchSetting is initializationOptions.webFetch.
type webFetchSetting struct {
	AllowPrivateNetwork *bool `json:"allowPrivateNetwork"`
}
