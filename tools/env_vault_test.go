package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// vaultHelperEnv runs this test binary as a helper process whose start-up
// environment block holds the canary (t.Setenv changes only Go's copy).
const vaultHelperEnv = "TOOLS_TEST_VAULT_HELPER"

func vaultHelper() int {
	if err := HideEnv("ZQX_MODEL_CREDS"); err != nil {
		fmt.Println("hide error:", err)
		return 1
	}
	environ, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		fmt.Println("environ:", err)
		return 1
	}
	fmt.Printf("getenv=%s\n", Getenv("ZQX_MODEL_CREDS"))
	fmt.Printf("os-getenv=%s\n", os.Getenv("ZQX_MODEL_CREDS"))
	fmt.Printf("environ-has-canary=%v\n", bytes.Contains(environ, []byte("zqx-canary-51c0ffee")))
	fmt.Printf("child-env-has-name=%v\n", slices.ContainsFunc(ChildEnviron(), func(kv string) bool {
		return strings.HasPrefix(kv, "ZQX_MODEL_CREDS=")
	}))
	return 0
}

// HideEnv takes a variable with an innocent name out of the environment,
// children and /proc/self/environ, and Getenv still returns the whole value
// after the wipe of the block.
func TestHideEnvWipesTheStartupBlockAndKeepsTheValue(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the start-up block is wiped on Linux only")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), vaultHelperEnv+"=1", "ZQX_MODEL_CREDS=zqx-canary-51c0ffee")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	want := "getenv=zqx-canary-51c0ffee\nos-getenv=\nenviron-has-canary=false\nchild-env-has-name=false\n"
	if string(out) != want {
		t.Errorf("helper reported\n%s\nwant\n%s", out, want)
	}
}

func TestHideEnvKeepsBasicVariables(t *testing.T) {
	t.Setenv("LC_ALL", "C.UTF-8")
	if err := HideEnv("PATH", "HOME", "LC_ALL", "XDG_CONFIG_HOME", "", "A=B"); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PATH") == "" || os.Getenv("LC_ALL") != "C.UTF-8" {
		t.Error("a basic variable was hidden")
	}
}

func TestRedactSecrets(t *testing.T) {
	t.Setenv("TOOLS_TEST_REDACT_LONG", `sk-"quoted"<tag>&amp-0123456789`)
	t.Setenv("TOOLS_TEST_REDACT_INNER", "0123456789")
	t.Setenv("TOOLS_TEST_REDACT_SHORT", "true")
	if err := HideEnv("TOOLS_TEST_REDACT_LONG", "TOOLS_TEST_REDACT_INNER", "TOOLS_TEST_REDACT_SHORT"); err != nil {
		t.Fatal(err)
	}
	long := Getenv("TOOLS_TEST_REDACT_LONG")

	// Raw text: the long value whole (not its inner part first), the inner
	// value alone, and a short value never.
	in := "key " + long + " id 0123456789 ok true"
	if got, want := RedactSecrets(in), "key [REDACTED] id [REDACTED] ok true"; got != want {
		t.Errorf("RedactSecrets = %q, want %q", got, want)
	}
	// JSON, as encoding/json writes it (HTML-escaped) and as zap or an
	// encoder without HTML escaping does.
	htmlJSON, _ := json.Marshal(map[string]string{"text": long, "flag": "true"})
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]string{"text": long})
	for _, b := range [][]byte{htmlJSON, plain.Bytes()} {
		got := RedactSecretBytes(b)
		if bytes.Contains(got, []byte("quoted")) || !bytes.Contains(got, []byte(`"text":"[REDACTED]"`)) {
			t.Errorf("RedactSecretBytes(%s) = %s", b, got)
		}
		if !json.Valid(got) {
			t.Errorf("redacted JSON is not valid: %s", got)
		}
	}
	clean := []byte(`{"text":"nothing here"}`)
	if got := RedactSecretBytes(clean); &got[0] != &clean[0] {
		t.Error("RedactSecretBytes copied text without a secret")
	}
}

// A tool's output passes the redactor before anyone sees it: a file holding
// a hidden key reaches neither the model nor the session.
func TestExecuteRedactsToolOutput(t *testing.T) {
	t.Setenv("TOOLS_TEST_TOOL_KEY", "tool-output-canary-42")
	if err := HideEnv("TOOLS_TEST_TOOL_KEY"); err != nil {
		t.Fatal(err)
	}
	ex := &execution{}
	ex.outcomes = make([]Outcome, 1)
	ex.finish(0, Outcome{Output: "key=tool-output-canary-42\n"}, 1000)
	if got := ex.outcomes[0].Output; got != "key=[REDACTED]\n" {
		t.Errorf("output = %q", got)
	}
}

// The cost a log line or a session batch pays: a 1 KiB line with no
// secret, and one with a secret, against ten hidden values.
func BenchmarkRedactSecretBytes(b *testing.B) {
	for i := range 10 {
		name := fmt.Sprintf("TOOLS_BENCH_SECRET_%d", i)
		b.Setenv(name, fmt.Sprintf("bench-secret-value-%02d-abcdef", i))
		if err := HideEnv(name); err != nil {
			b.Fatal(err)
		}
	}
	clean := bytes.Repeat([]byte(`{"level":"debug","msg":"round ended"} `), 1024/38)
	dirty := append(append([]byte{}, clean...), "bench-secret-value-07-abcdef"...)
	b.Run("clean", func(b *testing.B) {
		for b.Loop() {
			RedactSecretBytes(clean)
		}
	})
	b.Run("secret", func(b *testing.B) {
		for b.Loop() {
			RedactSecretBytes(dirty)
		}
	})
	// A line with a URL (no password): the value rules' expression runs.
	withURL := append(append([]byte{}, clean...), "see https://example.com/docs and sk-x"...)
	b.Run("url", func(b *testing.B) {
		for b.Loop() {
			RedactSecretBytes(withURL)
		}
	})
}
