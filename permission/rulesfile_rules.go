package permission

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// RuleFiles are a front end's rules files: the user's, one per workspace,
// and the store of trusted workspace files. Safe for concurrent use; every
// session of a front end shares one.
type RuleFiles struct {
	user  *ruleFile
	trust *rulesTrust

	mu         sync.Mutex
	workspaces map[string]*ruleFile // by root
}

// DefaultRulesFile is the user's rules file: <user config dir>/agent-lsp/permissions.json.
func DefaultRulesFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "agent-lsp", "permissions.json"), nil
}

// NewRuleFiles reads the user's rules from userFile ("": none) and keeps
// the trusted workspace files' hashes in stateDir/trust/permissions.json
// ("": for this run only). Nothing is read until a decision needs it.
func NewRuleFiles(userFile, stateDir string) *RuleFiles {
	f := &RuleFiles{trust: &rulesTrust{}, workspaces: map[string]*ruleFile{}}
	if userFile != "" {
		f.user = &ruleFile{src: SourceUser, path: userFile}
	}
	if stateDir != "" {
		f.trust.path = filepath.Join(stateDir, "trust", RulesTrustFile)
	}
	return f
}

// For is the rules of a session in the workspace root ("" for none: the
// user's only).
func (f *RuleFiles) For(root string) *Rules {
	r := &Rules{files: f, root: root}
	if root == "" {
		return r
	}
	r.key = realRoot(root)
	f.mu.Lock()
	defer f.mu.Unlock()
	ws, ok := f.workspaces[root]
	if !ok {
		ws = &ruleFile{src: SourceWorkspace, path: WorkspaceRulesFile, root: root}
		f.workspaces[root] = ws
	}
	r.ws = ws
	return r
}

// Rules are the rules that apply in one workspace.
type Rules struct {
	files *RuleFiles
	root  string
	key   string    // the root's real path: the trust store's key
	ws    *ruleFile // nil without a workspace
}

// RulesFileState describes one rules file for a listing.
type RulesFileState struct {
	Source  RuleSource
	Path    string
	Exists  bool
	Hash    string // of the content; what trusting it binds to
	Trusted bool   // the user's file always; the workspace's once approved for this content
	Errors  []string
}

// RulesListing is every rule and the state of the files they come from.
type RulesListing struct {
	Rules []Rule
	Files []RulesFileState
}

type loadedFiles struct {
	user, ws  fileState
	wsTrusted bool
	trustErr  error
}

func (r *Rules) load() loadedFiles {
	var l loadedFiles
	if r.files.user != nil {
		l.user = r.files.user.current()
	}
	if r.ws != nil {
		l.ws = r.ws.current()
		l.wsTrusted, l.trustErr = r.files.trust.trusted(r.key, l.ws.hash)
	}
	return l
}

// Decide returns the rule that decides a, if one does: a deny rule of
// either file (the workspace's apply even untrusted: they only narrow);
// else, below HIGH, an allow rule of the user's, then of the workspace's
// once the user trusted its content. A rule never allows HIGH or CRITICAL.
func (r *Rules) Decide(a Action) (Rule, bool) {
	l := r.load()
	cmd := &parsedCommand{command: a.Command}
	for _, set := range [][]Rule{l.user.rules, l.ws.rules} {
		for _, rule := range set {
			if rule.Decision == RuleDeny && rule.matches(a, cmd) {
				return rule, true
			}
		}
	}
	if a.Risk >= High {
		return Rule{}, false
	}
	sets := [][]Rule{l.user.rules}
	if l.wsTrusted {
		sets = append(sets, l.ws.rules)
	}
	for _, set := range sets {
		for _, rule := range set {
			if rule.Decision == RuleAllow && rule.matches(a, cmd) {
				return rule, true
			}
		}
	}
	return Rule{}, false
}

// canSave reports whether an "Always allow" can be saved to src.
func (r *Rules) canSave(src RuleSource) bool {
	if src == SourceWorkspace {
		return r.ws != nil
	}
	return r.files.user != nil
}

// Save adds an allow rule (a line RuleFor wrote) to src's file. Saving to
// a workspace file the user trusted (or that did not exist) trusts the
// new content: the user wrote it. An untrusted file stays untrusted.
func (r *Rules) Save(src RuleSource, line string) error {
	if _, err := ParseRule(line, RuleAllow, src); err != nil {
		return err
	}
	f := r.file(src)
	if f == nil {
		return fmt.Errorf("no %s rules file", src)
	}
	return r.rewrite(f, func(doc *rulesDoc) bool {
		var added bool
		doc.Allow, added = appendRule(doc.Allow, line)
		return added
	})
}

// Remove deletes the rule id from its file and returns it.
func (r *Rules) Remove(id string) (Rule, error) {
	for _, f := range []*ruleFile{r.files.user, r.ws} {
		if f == nil {
			continue
		}
		for _, rule := range f.current().rules {
			if rule.ID != id {
				continue
			}
			err := r.rewrite(f, func(doc *rulesDoc) bool {
				drop := func(list []string, kind RuleKind) []string {
					return slices.DeleteFunc(list, func(line string) bool {
						p, err := ParseRule(line, kind, f.src)
						return err == nil && p.ID == id
					})
				}
				doc.Allow, doc.Deny = drop(doc.Allow, RuleAllow), drop(doc.Deny, RuleDeny)
				return true
			})
			return rule, err
		}
	}
	return Rule{}, fmt.Errorf("no rule %q", id)
}

// rewrite edits f; a workspace file trusted before (or absent) is
// trusted after, since the change is the user's. Both are judged on the
// content the edit itself read and wrote: a file written meanwhile by
// someone else (a command, a parallel tool call) is never trusted by it.
func (r *Rules) rewrite(f *ruleFile, change func(*rulesDoc) bool) error {
	done, err := f.edit(change)
	if err != nil || f != r.ws {
		return err
	}
	wasTrusted := done.before == ""
	if !wasTrusted {
		wasTrusted, _ = r.files.trust.trusted(r.key, done.before)
	}
	if wasTrusted && done.after != done.before {
		return r.files.trust.remember(r.key, done.after)
	}
	return nil
}

// Trust approves the workspace's rules file as it is now; hash, when not
// "", must be the content's (the one the user was shown).
func (r *Rules) Trust(hash string) error {
	if r.ws == nil {
		return errors.New("no workspace rules file")
	}
	st := r.ws.current()
	switch {
	case !st.exists:
		return fmt.Errorf("%s does not exist", r.ws.where())
	case st.hash == "":
		return fmt.Errorf("%s cannot be read: %w", r.ws.where(), errors.Join(st.errs...))
	case hash != "" && hash != st.hash:
		return fmt.Errorf("%s changed since it was shown: list the rules again", r.ws.where())
	}
	return r.files.trust.remember(r.key, st.hash)
}

// List returns every rule, deny rules first, and the files' states.
func (r *Rules) List() RulesListing {
	l := r.load()
	var out RulesListing
	if f := r.files.user; f != nil {
		out.Files = append(out.Files, fileListing(f, l.user, true, nil))
		out.Rules = append(out.Rules, l.user.rules...)
	}
	if r.ws != nil {
		out.Files = append(out.Files, fileListing(r.ws, l.ws, l.wsTrusted, l.trustErr))
		out.Rules = append(out.Rules, l.ws.rules...)
	}
	return out
}

func fileListing(f *ruleFile, st fileState, trusted bool, trustErr error) RulesFileState {
	s := RulesFileState{Source: f.src, Path: f.where(), Exists: st.exists, Hash: st.hash, Trusted: trusted && st.exists}
	for _, e := range append(st.errs, trustErr) {
		if e != nil {
			s.Errors = append(s.Errors, e.Error())
		}
	}
	return s
}

func (r *Rules) file(src RuleSource) *ruleFile {
	if src == SourceWorkspace {
		return r.ws
	}
	return r.files.user
}
