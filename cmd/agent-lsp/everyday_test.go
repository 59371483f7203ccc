//go:build linux

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The sandbox must not get in the way of ordinary work, or users turn it
// off. Issue 23's acceptance list, run by the real binary in each front
// end, as root and as an ordinary account, with the default settings in a
// git workspace: the namespaces are in use, and each everyday command
// succeeds. No setting is given: the build tools' caches (Go, npm, pip)
// are the sandbox's own per-workspace caches out of the box.

// everydayCommand is one command and what its output shows when it
// worked (a line the command prints only on success). A build (seconds
// each: pip into a venv, a cold Go cache) runs through the daemon only;
// the chat and ACP set the sandbox up through the same package, and run
// the quick commands.
type everydayCommand struct {
	name, command, want string
	build               bool
}

// everydayCommands are run in this order in one prompt, one per round;
// builds false leaves the builds out.
func everydayCommands(acct account, tarball string, port int, builds bool) []everydayCommand {
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	all := []everydayCommand{
		{"the account", "id -u", strconv.Itoa(acct.uid) + "\n", false},
		{"touch a new file at the root", "touch new.txt && ls new.txt", "new.txt", false},
		{"mkdir at the root", "mkdir build && test -d build && echo 'build is a directory'", "build is a directory", false},
		{"npm init and install a local tarball",
			"npm init -y >/dev/null && npm install --no-audit --no-fund " + tarball +
				" && node -e \"console.log(require('everyday-fixture'))\"", "everyday fixture loaded", true},
		{"python venv", "python3 -m venv .venv && .venv/bin/python -c 'import sys; print(\"venv at\", sys.prefix)'", "venv at ", true},
		{"go build", "go build -o bin/x . && ./bin/x", "built and ran", true},
		// curl retries until the server listens (a second, on a slow
		// machine; ten at most): the command's own wait, not the test's.
		{"loopback server and client", "python3 -m http.server " + strconv.Itoa(port) + " --bind 127.0.0.1 >/dev/null 2>&1 & " +
			"curl -sS --retry 10 --retry-connrefused --retry-delay 1 --retry-max-time 10 " + url + "; status=$?; kill $!; exit $status", "Directory listing", false},
		{"ps aux", "ps aux", "PID", false},
		{"free", "free -m", "Mem:", false},
		{"/proc/self", "head -1 /proc/self/status && readlink /proc/self/exe", "Name:", false},
	}
	if !builds {
		all = slices.DeleteFunc(all, func(c everydayCommand) bool { return c.build })
	}
	return all
}

// TestEverydayCommands runs the acceptance list through each front end as
// each test account.
func TestEverydayCommands(t *testing.T) {
	for _, acct := range testAccounts(t) {
		t.Run("as "+acct.name, func(t *testing.T) {
			t.Parallel() // the accounts share nothing: half the wall time
			dir := acct.tempDir(t)
			tarball := npmPack(t, dir)
			acct.own(t, dir)
			for _, fe := range frontEnds {
				t.Run(fe.name, func(t *testing.T) { everyday(t, acct, fe, tarball) })
			}
		})
	}
}

func everyday(t *testing.T, acct account, fe frontEnd, tarball string) {
	lab := newAttackLab(t, acct, false)
	files := map[string]string{
		"go.mod":  "module example.com/everyday\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() { println(\"built and ran\") }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(lab.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A repository with history, as a user's is (go build stamps the
	// revision; a repository without a commit fails that).
	gitCommit(t, lab, "go.mod", "main.go")
	lab.env = withEnv(lab.env, "PATH="+everydayPath())
	cmds := everydayCommands(acct, tarball, 20000+rand.IntN(40000), fe.name == "daemon")
	var calls []providertest.Call
	for _, c := range cmds {
		calls = append(calls, bashCall(c.command))
	}
	srv := providertest.NewServer(t, oneCallPerRound(calls), providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
	start := time.Now()
	fe.prompt(t, lab, srv, "Set the project up and check the machine.")
	t.Logf("%s as %s: %d commands in %v", fe.name, acct, len(cmds), time.Since(start).Round(time.Millisecond))
	lab.checkTempDirsGone(t)

	logData, err := os.ReadFile(lab.logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logData), ", namespaces)") {
		t.Errorf("the log does not say the namespaces are in use (want \", namespaces)\" in the sandbox status):\n%s",
			sandboxLogLines(logData))
	}
	results := lastResults(t, srv, len(cmds))
	for i, c := range cmds {
		r := results[i]
		if !strings.Contains(r, "\nexit code 0") || !strings.Contains(r, c.want) {
			t.Errorf("%s as %s: %s failed (want exit code 0 and %q):\n$ %s\n%s", fe.name, acct, c.name, c.want, c.command, r)
		}
	}
}

// npmPack makes the package the npm command installs, with npm pack, in
// dir; it returns the tarball's path.
func npmPack(t *testing.T, dir string) string {
	t.Helper()
	pkg := filepath.Join(dir, "everyday-fixture")
	files := map[string]string{
		"package.json": `{"name": "everyday-fixture", "version": "1.0.0", "main": "index.js"}` + "\n",
		"index.js":     "module.exports = 'everyday fixture loaded';\n",
	}
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("npm is needed to make the package: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "pack", "--pack-destination", dir)
	cmd.Dir = pkg
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "npm_config_cache=" + filepath.Join(dir, "npm-pack-cache")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, out)
	}
	return filepath.Join(dir, "everyday-fixture-1.0.0.tgz")
}

// gitCommit commits paths of the lab's workspace as its first commit.
func gitCommit(t *testing.T, lab *attackLab, paths ...string) {
	t.Helper()
	for _, args := range [][]string{
		append([]string{"add", "--"}, paths...),
		{"-c", "user.name=Everyday", "-c", "user.email=everyday@example.com", "commit", "-q", "-m", "start"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = lab.ws
		cmd.Env = []string{"HOME=" + lab.home, "PATH=" + os.Getenv("PATH")}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// everydayPath is a PATH an ordinary account can use: the directories of
// the tools the commands need (root's own, under /root, left out: a
// version manager's shims are not the account's), then the system's.
func everydayPath() string {
	var dirs []string
	for _, tool := range []string{"go", "node", "npm", "git", "curl"} {
		if p, err := exec.LookPath(tool); err == nil && !strings.HasPrefix(p, "/root/") && !slices.Contains(dirs, filepath.Dir(p)) {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	for _, d := range []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"} {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, ":")
}

// withEnv returns env with each name=value of set replacing the name's
// earlier values.
func withEnv(env []string, set ...string) []string {
	out := slices.Clone(env)
	for _, kv := range set {
		name := kv[:strings.IndexByte(kv, '=')+1]
		out = slices.DeleteFunc(out, func(e string) bool { return strings.HasPrefix(e, name) })
		out = append(out, kv)
	}
	return out
}

// sandboxLogLines are the log's lines about the sandbox, for a failure.
func sandboxLogLines(log []byte) string {
	var out []string
	for _, l := range strings.Split(string(log), "\n") {
		if strings.Contains(l, "sandbox") {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return "(no line about the sandbox)"
	}
	return strings.Join(out, "\n")
}
