package main

import (
	"maps"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
)

// The twenty credentials, in the chat's environment with the canaries of
// old, reach no command's environment, no request to the model, no
// session file, recording, raw dump or log: as root and as an ordinary
// user, with the sandbox off (the scrub and the vault alone protect them).
func TestChatCredentialVariablesReachNoChildFileOrLog(t *testing.T) {
	accounts := []struct {
		name   string
		prefix []string
	}{{name: "the test's user"}}
	if setpriv, err := exec.LookPath("setpriv"); err == nil && os.Geteuid() == 0 {
		accounts = append(accounts, struct {
			name   string
			prefix []string
		}{"nobody", []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}})
	}
	for _, acct := range accounts {
		t.Run(acct.name, func(t *testing.T) {
			env, check := canaries(), canaries()
			for _, c := range fixturetest.CredentialVariables() {
				env[c.Name] = c.Value
				check[c.Name] = c.Value
				if c.Secret != "" {
					check[c.Name] = c.Secret
				}
			}
			r := runSecretChat(t, env, []string{"--sandbox", "off"}, acct.prefix...)
			seen := checkNothingLeaked(t, maps.Clone(check), r)
			child, _, ok := strings.Cut(seen, "==parent==")
			if !ok || !strings.Contains(child, "PATH=") {
				t.Fatalf("the command did not run as scripted:\n%s", seen)
			}
			for _, c := range fixturetest.CredentialVariables() {
				if strings.Contains(child, "\n"+c.Name+"=") || strings.HasPrefix(child, c.Name+"=") {
					t.Errorf("the child's environment has %s", c.Name)
				}
			}
		})
	}
}
