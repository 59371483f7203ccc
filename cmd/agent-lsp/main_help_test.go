package main

import (
	"bytes"
	"strings"
	"testing"
)

func runMain(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// --version (and version) print the version set at build time with
// -ldflags "-X main.version=…".
func TestVersionFlag(t *testing.T) {
	saved := version
	version = "1.2.3-test"
	t.Cleanup(func() { version = saved })
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		if code, out, errOut := runMain(args...); code != 0 || out != "agent-lsp 1.2.3-test\n" || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// Help goes to stdout with exit 0; a usage error to stderr with exit 2.
func TestHelpOnStdoutUsageErrorsOnStderr(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, out, errOut := runMain(args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "agent-lsp chat [flags]") || !strings.Contains(out, "-log-file") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
		}
	}
	code, out, errOut := runMain("acp", "-h")
	if code != 0 || errOut != "" || !strings.Contains(out, "usage: agent-lsp acp") || !strings.Contains(out, "-state-dir") {
		t.Errorf("acp -h: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if code, out, errOut := runMain("acp", "--no-such-flag"); code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Errorf("acp --no-such-flag: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, args := range [][]string{{"--no-such-flag"}, {"no-such-command"}} {
		code, out, errOut := runMain(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "no-such") || !strings.Contains(errOut, "usage:") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
		}
	}
}
