package e2e

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// vsixVersion is what scripts/release stamps into the bundled binary here.
const vsixVersion = "0.0.0-vsixtest"

// The extension installed as a user without a toolchain installs it
// (issue 25, item 8): scripts/release packages the linux-x64 .vsix with
// the binary inside, code-server installs it (--install-extension), and
// VS Code runs with a PATH that has no agent-lsp and no go and with no
// agentLsp.path setting. The chat answers a prompt from the fake model:
// the daemon was the bundled binary, the only one there is.
// scenario/lib/steps_vsix.mjs drives the UI and writes the screenshots.
func TestVsixWithTheBinaryInsideNeedsNoToolchain(t *testing.T) {
	peers := requireScenario(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("scripts/release needs bash: %v", err)
	}
	dist := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	release := exec.CommandContext(ctx, "bash", filepath.Join("..", "..", "..", "scripts", "release"),
		"--targets", "linux-x64", "--parts", "vsix", "--dist", dist, "--version", vsixVersion)
	started := time.Now()
	if out, err := release.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release: %v\n%s", err, out)
	}
	t.Logf("scripts/release --targets linux-x64 --parts vsix: %v", time.Since(started).Round(time.Millisecond))
	vsix := filepath.Join(dist, "agent-lsp-linux-x64.vsix")
	checkBundledBinary(t, vsix)

	// The PATH of code-server and everything under it: Node's directory
	// (code-server is a Node program) and the system's, checked to hold
	// neither agent-lsp nor go.
	path := filepath.Dir(peers.node) + ":/usr/bin:/bin"
	for _, tool := range []string{"agent-lsp", "go"} {
		if out, err := exec.Command("/bin/sh", "-c", "PATH="+path+" command -v "+tool).Output(); err == nil {
			t.Fatalf("%s is on the PATH the test gives VS Code (%s): %s", tool, path, out)
		}
	}

	const (
		prompt = "Which version are you?"
		answer = "The one bundled with the extension."
	)
	model := providertest.NewServer(t, providertest.Script{{Text: answer}})
	workspace := t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "review.go"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	// No "agentLsp" key: userSettings leaves agentLsp.path out, so the
	// extension chooses the binary itself.
	cfg := map[string]any{
		"suite": "vsix", "node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": vsix,
		"modelURL": model.OpenAIBaseURL(), "home": t.TempDir(), "workspace": workspace,
		"artifacts": hostileArtifacts(t, "vsix"), "timeoutMs": 30000,
		"env":    map[string]string{"PATH": path},
		"prompt": prompt, "answer": answer,
	}
	sum := runScenario(t, peers, cfg)
	for _, s := range sum.Steps {
		t.Logf("step %-22s %6d ms", s.Name, s.Ms)
	}
	t.Logf("screenshots in %s", cfg["artifacts"])
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	if reqs[0].Rejected != "" {
		t.Errorf("the request was rejected by the strict fake: %s", reqs[0].Rejected)
	}
	if !strings.Contains(string(reqs[0].Body), jsonText(prompt)) {
		t.Errorf("the model request lacks the prompt: %s", reqs[0].Body)
	}
}

// checkBundledBinary checks the .vsix holds extension/bin/agent-lsp as an
// executable file (VS Code keeps a zip entry's mode when it installs) and
// the .vsix is for linux-x64 (its manifest's TargetPlatform).
func checkBundledBinary(t *testing.T, vsix string) {
	t.Helper()
	zr, err := zip.OpenReader(vsix)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var binary, manifest *zip.File
	for _, f := range zr.File {
		switch f.Name {
		case "extension/bin/agent-lsp":
			binary = f
		case "extension.vsixmanifest":
			manifest = f
		}
	}
	if binary == nil {
		t.Fatalf("%s holds no extension/bin/agent-lsp", vsix)
	}
	if mode := binary.Mode(); !mode.IsRegular() || mode.Perm()&0o111 != 0o111 {
		t.Errorf("extension/bin/agent-lsp has mode %v, want an executable file", mode)
	}
	if manifest == nil {
		t.Fatalf("%s holds no extension.vsixmanifest", vsix)
	}
	r, err := manifest.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `TargetPlatform="linux-x64"`) {
		t.Errorf("the manifest names no linux-x64 target:\n%s", b.String())
	}
}
