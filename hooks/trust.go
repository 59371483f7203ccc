package hooks

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// WithWorkspace gives the runner a workspace's hooks (ReadWorkspace):
// they run once trusted, now (trusted) or after TrustWorkspace. trust
// records the user's yes, bound to the hooks' hash (nil: this run only).
func (r *Runner) WithWorkspace(w Workspace, trusted bool, trust func(hash string) error) *Runner {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.workspace, r.trusted, r.trust = w, trusted && w.Err == nil, trust
	return r
}

// Untrusted says, for the user, that the workspace has hooks that do not
// run yet ("" when it has none, or they run).
func (r *Runner) Untrusted() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.workspace.Err != nil:
		return fmt.Sprintf("this workspace's hooks cannot be used: %v", r.workspace.Err)
	case r.workspace.Config == nil || r.trusted:
		return ""
	}
	return fmt.Sprintf("this workspace has hooks (%s) that do not run until you trust them: /hooks shows them, /hooks trust runs them", WorkspaceSettings)
}

// Describe lists the hooks for /hooks: the user's, and the workspace's
// with what they run and whether they do.
func (r *Runner) Describe() string {
	var b strings.Builder
	describe(&b, "Your hooks", r.config)
	r.mu.RLock()
	w, trusted := r.workspace, r.trusted
	r.mu.RUnlock()
	switch {
	case w.Err != nil:
		fmt.Fprintf(&b, "The workspace's hooks cannot be used: %v\n", w.Err)
	case w.Config != nil:
		state := "not trusted: they do not run (/hooks trust runs them as they are now)"
		if trusted {
			state = "trusted: they run"
		}
		describe(&b, fmt.Sprintf("The workspace's hooks (%s, %s)", WorkspaceSettings, state), w.Config)
		if len(w.Scripts) > 0 {
			fmt.Fprintf(&b, "  scripts they run, part of what you trust: %s\n", strings.Join(w.Scripts, ", "))
		}
	}
	if b.Len() == 0 {
		return "No hooks. Yours come from initializationOptions.hooks or the chat's --settings; a workspace's from " + WorkspaceSettings + "."
	}
	return strings.TrimRight(b.String(), "\n")
}

func describe(b *strings.Builder, title string, c Config) {
	if len(c) == 0 {
		return
	}
	fmt.Fprintf(b, "%s:\n", title)
	events := make([]string, 0, len(c))
	for e := range c {
		events = append(events, e)
	}
	sort.Strings(events)
	for _, e := range events {
		for _, m := range c[e] {
			for _, h := range m.Hooks {
				on := ""
				if m.Matcher != "" {
					on = " [" + m.Matcher + "]"
				}
				fmt.Fprintf(b, "  %s%s: %s\n", e, on, oneLine(h.Command))
			}
		}
	}
}

// TrustWorkspace makes the workspace's hooks run as they are now, and
// remembers it for them (an edit of the file or of a script it runs is
// asked about again).
func (r *Runner) TrustWorkspace() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.workspace.Err != nil:
		return "", r.workspace.Err
	case r.workspace.Config == nil:
		return "", errors.New("this workspace has no hooks (" + WorkspaceSettings + ")")
	}
	if r.trust != nil {
		if err := r.trust(r.workspace.Hash); err != nil {
			return "", fmt.Errorf("remembering the trust: %w", err)
		}
	}
	r.trusted = true
	return "The workspace's hooks run from now on, as they are (" + r.workspace.Hash[:19] + "…).", nil
}
