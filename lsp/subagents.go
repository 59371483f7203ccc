package lsp

import (
	"context"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// subagentInfo is one custom subagent file as agent/subagents lists it:
// what it is, where it is, what trust it has, and what the user trusts
// when they trust it (its prompt, as written; the hash binds it).
type subagentInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tools       []string `json:"tools"` // [] : the defaults
	Model       string   `json:"model,omitempty"`
	Prompt      string   `json:"prompt"`
	Path        string   `json:"path"`
	Source      string   `json:"source"` // "workspace" or "user"
	Hash        string   `json:"hash"`
	Trust       string   `json:"trust"`             // "user", "untrusted", "once", "always"
	Problem     string   `json:"problem,omitempty"` // why it is not offered although trusted
}

type subagentsResult struct {
	Subagents []subagentInfo `json:"subagents"`
}

type subagentTrustParams struct {
	Name  string `json:"name"`
	Hash  string `json:"hash"`  // the content the user saw (agent/subagents' hash)
	Trust string `json:"trust"` // "once", "always" or "deny"
}

func (s *server) subagentCatalog() (*control.SubagentCatalog, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subagents == nil {
		return nil, errNotInitialized
	}
	return s.subagents, nil
}

// listSubagents serves agent/subagents: the custom subagent files, read
// again (an edited workspace file is untrusted again).
func (s *server) listSubagents(context.Context, noParams) (subagentsResult, error) {
	c, err := s.subagentCatalog()
	if err != nil {
		return subagentsResult{}, err
	}
	return subagentsOf(c.Reload()), nil
}

// subagentTrust serves agent/subagentTrust: the user's decision about a
// workspace subagent file, bound to the hash they were shown.
func (s *server) subagentTrust(_ context.Context, p subagentTrustParams) (subagentsResult, error) {
	c, err := s.subagentCatalog()
	if err != nil {
		return subagentsResult{}, err
	}
	files, err := c.Trust(p.Name, p.Hash, p.Trust)
	if errors.Is(err, control.ErrInvalid) {
		return subagentsResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	if err != nil {
		return subagentsResult{}, err
	}
	return subagentsOf(files), nil
}

func subagentsOf(files []control.SubagentFile) subagentsResult {
	out := subagentsResult{Subagents: []subagentInfo{}}
	for _, f := range files {
		tools := f.Tools
		if tools == nil {
			tools = []string{}
		}
		out.Subagents = append(out.Subagents, subagentInfo{Name: f.Name, Description: f.Description, Tools: tools,
			Model: f.Model, Prompt: f.Prompt, Path: f.Path, Source: f.Source, Hash: f.Hash, Trust: f.Trust, Problem: f.Problem})
	}
	return out
}
