package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/permission"
)

// permissionsParams is agent/permissions: no field lists the rules;
// remove deletes the rule of that id; trust approves the workspace's
// rules file whose content has that hash (files[].hash of a listing).
type permissionsParams struct {
	Remove string `json:"remove,omitempty"`
	Trust  string `json:"trust,omitempty"`
}

// permissionsResult is the rules after the change, and their files.
type permissionsResult struct {
	Rules []permissionRule `json:"rules"`
	Files []rulesFile      `json:"files"`
}

type permissionRule struct {
	ID       string `json:"id"`
	Tool     string `json:"tool"`
	Pattern  string `json:"pattern"`  // "" covers every call of tool
	Decision string `json:"decision"` // allow or deny
	Source   string `json:"source"`   // user or workspace
}

type rulesFile struct {
	Source  string   `json:"source"`
	Path    string   `json:"path"`
	Exists  bool     `json:"exists"`
	Trusted bool     `json:"trusted"`
	Hash    string   `json:"hash,omitempty"`
	Errors  []string `json:"errors"`
}

// permissions serves agent/permissions over the rules of the daemon's
// workspace.
func (s *server) permissions(_ context.Context, p permissionsParams) (permissionsResult, error) {
	s.mu.Lock()
	ctl, ws := s.ctl, s.ws
	s.mu.Unlock()
	if ctl == nil {
		return permissionsResult{}, errNotInitialized
	}
	rules := ctl.Rules(ws)
	if rules == nil {
		return permissionsResult{Rules: []permissionRule{}, Files: []rulesFile{}}, nil
	}
	if p.Remove != "" {
		if _, err := rules.Remove(p.Remove); err != nil {
			return permissionsResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
	}
	if p.Trust != "" {
		if err := rules.Trust(p.Trust); err != nil {
			return permissionsResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
	}
	return listingResult(rules.List()), nil
}

func listingResult(l permission.RulesListing) permissionsResult {
	res := permissionsResult{Rules: []permissionRule{}, Files: []rulesFile{}}
	for _, r := range l.Rules {
		res.Rules = append(res.Rules, permissionRule{ID: r.ID, Tool: r.Tool, Pattern: r.Pattern,
			Decision: string(r.Decision), Source: string(r.Source)})
	}
	for _, f := range l.Files {
		errs := f.Errors
		if errs == nil {
			errs = []string{}
		}
		res.Files = append(res.Files, rulesFile{Source: string(f.Source), Path: f.Path, Exists: f.Exists,
			Trusted: f.Trusted, Hash: f.Hash, Errors: errs})
	}
	return res
}
