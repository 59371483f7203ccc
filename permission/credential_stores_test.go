package permission

import (
	"path"
	"strings"
	"testing"
)

// TestCredentialStoresHoldEveryCredentialPath: a walk that skips the
// per-file CredentialPath check in directories no store is at, in or below
// would miss a credential if CredentialPath accepted a path outside every
// store; so every path it accepts, among many near and inside the stores,
// must be within one.
func TestCredentialStoresHoldEveryCredentialPath(t *testing.T) {
	for _, home := range []string{"/home/u", "/root", "/home/u/", "/"} {
		stores := CredentialStores(home)
		var probes []string
		for _, s := range stores {
			dir := path.Dir(s)
			for _, name := range []string{path.Base(s), "id_rsa", "x_key", "config", "credentials", "a.pub"} {
				probes = append(probes, dir+"/"+name, s+"/"+name, s+"/sub/"+name, s+"x/"+name)
			}
		}
		accepted := 0
		for _, p := range probes {
			if !CredentialPath(p, home) {
				continue
			}
			accepted++
			inside := false
			for _, s := range stores {
				if p == s || strings.HasPrefix(p, s+"/") {
					inside = true
					break
				}
			}
			if !inside {
				t.Errorf("home %s: CredentialPath(%s) is true, yet the path is in no CredentialStores entry", home, p)
			}
		}
		if accepted == 0 {
			t.Errorf("home %s: no probe accepted: the test checks nothing", home)
		}
	}
}
