package lsptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Nvim is one Neovim binary the end-to-end suites drive.
type Nvim struct {
	Version string // "0.12.4", from nvim --version
	Path    string
}

// NvimVersions are the Neovim series every suite must run on under CI:
// Debian bookworm's, trixie's and sid's (scripts/install-nvim-versions).
var NvimVersions = []string{"0.7", "0.10", "0.12"}

var (
	nvimsOnce sync.Once
	nvims     []Nvim
)

var nvimVersionLine = regexp.MustCompile(`^NVIM v(\d+\.\d+\.\d+)`)

// findNvims lists $AGENT_LSP_NVIMS (binaries separated by ':') or, without
// it, nvim on PATH and the prefixes scripts/install-nvim-versions unpacks
// under repoRoot/.cache/nvim, each once per version, oldest first.
func findNvims(repoRoot string) []Nvim {
	var paths []string
	if env := os.Getenv("AGENT_LSP_NVIMS"); env != "" {
		paths = strings.Split(env, ":")
	} else {
		if p, err := exec.LookPath("nvim"); err == nil {
			paths = append(paths, p)
		}
		cached, _ := filepath.Glob(filepath.Join(repoRoot, ".cache", "nvim", "*", "bin", "nvim"))
		paths = append(paths, cached...)
	}
	var found []Nvim
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		out, err := exec.Command(abs, "--version").Output()
		if err != nil {
			continue
		}
		m := nvimVersionLine.FindSubmatch(out)
		if m == nil || slices.ContainsFunc(found, func(n Nvim) bool { return n.Version == string(m[1]) }) {
			continue
		}
		found = append(found, Nvim{Version: string(m[1]), Path: abs})
	}
	slices.SortFunc(found, func(a, b Nvim) int { return compareVersions(a.Version, b.Version) })
	return found
}

func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range min(len(as), len(bs)) {
		if d := len(as[i]) - len(bs[i]); d != 0 {
			return d
		}
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}

// RequireNvims returns the Neovims to run on. Under CI every series of
// NvimVersions must be there; outside it the test skips without any and
// logs the missing ones.
func RequireNvims(t testing.TB, repoRoot string) []Nvim {
	t.Helper()
	nvimsOnce.Do(func() { nvims = findNvims(repoRoot) })
	var missing []string
	for _, series := range NvimVersions {
		if !slices.ContainsFunc(nvims, func(n Nvim) bool { return strings.HasPrefix(n.Version, series+".") }) {
			missing = append(missing, series)
		}
	}
	switch {
	case len(missing) > 0 && os.Getenv("CI") != "":
		t.Fatalf("Neovim %s not found (scripts/install-test-peers installs them; found %v)", strings.Join(missing, ", "), nvims)
	case len(nvims) == 0:
		t.Skip("no Neovim found (run scripts/install-test-peers)")
	case len(missing) > 0:
		t.Logf("Neovim %s not found, not tested (run scripts/install-test-peers)", strings.Join(missing, ", "))
	}
	return nvims
}

// ForEachNvim runs body as a subtest "nvim-<version>" per Neovim found.
func ForEachNvim(t *testing.T, repoRoot string, body func(t *testing.T, nvim Nvim)) {
	t.Helper()
	for _, n := range RequireNvims(t, repoRoot) {
		t.Run("nvim-"+n.Version, func(t *testing.T) { body(t, n) })
	}
}
