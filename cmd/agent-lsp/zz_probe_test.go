package main

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func TestZZProbe(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Fault: &providertest.Fault{Status: 400}}})
	code, out, errOut := runChatCmd(t, "hello\n", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", t.TempDir())
	t.Logf("code=%d\nOUT:\n%s\nERR:\n%s\nreqs=%d", code, out, errOut, len(srv.Requests()))
	srv2 := providertest.NewServer(t, providertest.Script{{Fault: &providertest.Fault{Status: 400}}})
	code, out, errOut = runChatCmd(t, "", "-p", "hello", "--base-url", srv2.OpenAIBaseURL(), "--api-key-env", "none", "--dir", t.TempDir())
	t.Logf("code=%d\nOUT:\n%s\nERR:\n%s\nreqs=%d", code, out, errOut, len(srv.Requests()))
	code, out, errOut = runChatCmd(t, "", "--resume", "nope", "--api-key-env", "none", "--dir", t.TempDir())
	t.Logf("code=%d\nOUT:\n%s\nERR:\n%s", code, out, errOut)
}
