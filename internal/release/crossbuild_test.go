package release

import (
	"bufio"
	"context"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// crossTargets are the targets the test builds: every system and every
// processor of the release, and both of Linux's (tools/vfork_linux_amd64.go
// is our one file that differs by processor). darwin-x64 and win32-arm64
// differ from these only in GOARCH within a system, for which our code has
// no file of its own: each target is a cold build of the standard library
// and every dependency (-trimpath shares no cache with the test builds),
// minutes on two busy cores, so these two are left to scripts/release.
var crossTargets = []struct{ target, goos, goarch string }{
	{"linux-x64", "linux", "amd64"},
	{"linux-arm64", "linux", "arm64"},
	{"darwin-arm64", "darwin", "arm64"},
	{"win32-x64", "windows", "amd64"},
}

// The binaries scripts/release ships, each an executable of its system and
// processor, listed with their sums, and the npm packages (the script
// installs the shim and the host's package from the tarballs, offline, and
// runs agent-lsp --version through the shim; it fails otherwise). The
// script itself runs here, with --targets; the .vsix part is
// editors/vscode/e2e's TestVsixWithTheBinaryInsideNeedsNoToolchain.
func TestReleaseBuildsForEverySystemAndProcessor(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds the binary for four targets")
	}
	for _, tool := range []string{"bash", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("scripts/release needs %s: %v", tool, err)
			}
			t.Skipf("scripts/release needs %s: %v", tool, err)
		}
	}
	dist := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute) // within go test's 10 min
	defer cancel()
	const version = "1.2.3-crossbuild"
	started := time.Now()
	var targets []string
	for _, c := range crossTargets {
		targets = append(targets, c.target)
	}
	release := exec.CommandContext(ctx, "bash", filepath.Join("..", "..", "scripts", "release"),
		"--targets", strings.Join(targets, " "), "--parts", "binaries npm", "--dist", dist, "--version", version)
	if out, err := release.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release --parts binaries npm: %v\n%s", err, out)
	}
	t.Logf("%d targets built and packed in %v", len(targets), time.Since(started).Round(time.Millisecond))

	machineOf := map[string]func(path string) (string, error){
		"linux": func(path string) (string, error) {
			f, err := elf.Open(path)
			if err != nil {
				return "", err
			}
			defer f.Close()
			return map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64"}[f.Machine], nil
		},
		"darwin": func(path string) (string, error) {
			f, err := macho.Open(path)
			if err != nil {
				return "", err
			}
			defer f.Close()
			return map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[f.Cpu], nil
		},
		"windows": func(path string) (string, error) {
			f, err := pe.Open(path)
			if err != nil {
				return "", err
			}
			defer f.Close()
			return map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64"}[f.Machine], nil
		},
	}
	want := map[string]bool{"npm/agent-lsp-" + version + ".tgz": true}
	for _, c := range crossTargets {
		name := "agent-lsp-" + c.goos + "-" + c.goarch
		if c.goos == "windows" {
			name += ".exe"
		}
		want[name] = true
		want["npm/agent-lsp-"+c.target+"-"+version+".tgz"] = true
		got, err := machineOf[c.goos](filepath.Join(dist, name))
		if err != nil || got != c.goarch {
			t.Errorf("%s: a %s executable for %q, %v; want %s", name, c.goos, got, err, c.goarch)
		}
	}

	sums, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer sums.Close()
	lines := bufio.NewScanner(sums)
	for lines.Scan() {
		sum, name, ok := strings.Cut(lines.Text(), "  ")
		if !ok || !want[name] {
			t.Errorf("SHA256SUMS line %q", lines.Text())
			continue
		}
		delete(want, name)
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != sum {
			t.Errorf("SHA256SUMS: %s's sum is not %s", name, sum)
		}
	}
	for name := range want {
		t.Errorf("SHA256SUMS lacks %s", name)
	}

	host := "agent-lsp-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		host += ".exe"
	}
	if out, err := exec.CommandContext(ctx, filepath.Join(dist, host), "--version").Output(); err != nil || string(out) != "agent-lsp v"+version+"\n" {
		t.Errorf("%s --version = %q, %v; want agent-lsp v%s", host, out, err, version)
	}
}
