package permission

import "testing"

// The tool stores under home and the credential files anywhere are
// secrets to read; their public halves, templates and look-alikes are not.
func TestCredentialFilesAndToolStores(t *testing.T) {
	const home = "/home/u"
	for _, c := range []struct {
		path string
		want bool
	}{
		{"/home/u/.m2/settings.xml", true},
		{"/home/u/.gradle/gradle.properties", true},
		{"/home/u/.npmrc", true},
		{"/home/u/.yarnrc.yml", true},
		{"/home/u/.config/git/credentials", true},
		{"/home/u/.config/gh/hosts.yml", true},
		{"/home/u/.docker/config.json", true},
		{"/home/u/.kube/config", true},
		{"/home/u/.mozilla/firefox/abc.default/logins.json", true},
		{"/home/u/.config/google-chrome/Default/Login Data", true},
		{"/home/u/.config/Code/User/globalStorage/state.vscdb", true},
		{"/home/u/proj/.env", true},
		{"/home/u/proj/.env.local", true},
		{"/srv/app/.env.production", true},
		{"/srv/app/certs/server.key", true},
		{"/srv/app/certs/tls.pem", true},
		{"/srv/backup/id_ed25519", true},
		{"/srv/backup/id_rsa_deploy", true},
		{"/srv/profile-copy/Cookies", true},
		{"/srv/profile-copy/key4.db", true},
		{"/srv/app/.netrc", true},
		{"/srv/app/store.p12", true},
		{"/srv/app/.env.example", false},
		{"/srv/app/.env.sample", false},
		{"/srv/app/.envrc", false},
		{"/srv/backup/id_ed25519.pub", false},
		{"/srv/app/keys.go", false},
		{"/srv/app/id_test.go", false},
		{"/home/u/.m2/repository/x.jar", false},
		{"/home/u/.gradle/caches/x", false},
		{"/home/u/.config/Code/User/settings.json", false},
	} {
		got := CredentialPath(c.path, home) || CredentialFile(c.path)
		if got != c.want {
			t.Errorf("%s: credential = %v, want %v", c.path, got, c.want)
		}
	}
}
