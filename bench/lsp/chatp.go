package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

// answerHi is a Chat Completions server that streams "Hi." to every
// request: the model of the one-shot chat's start-up case, so that what
// is timed is the binary, not a network.
func answerHi(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	bw := bufio.NewWriter(w)
	fmt.Fprint(bw, "data: {\"id\":\"b\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi.\"},\"finish_reason\":null}]}\n\n")
	fmt.Fprint(bw, "data: {\"id\":\"b\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2,\"total_tokens\":12}}\n\n")
	fmt.Fprint(bw, "data: [DONE]\n\n")
	_ = bw.Flush()
}

// measureChatP times `agent-lsp chat -p` from spawn to exit, n times,
// against answerHi, with the sandbox at its default (on): the median.
func measureChatP(bin, work string, env []string, n int) (time.Duration, error) {
	srv := httptest.NewServer(http.HandlerFunc(answerHi))
	defer srv.Close()
	var times []time.Duration
	for i := range n {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, "chat", "-p", "Say hi.", "--no-color",
			"--provider", "openai", "--base-url", srv.URL, "--api-key-env", "none", "--thinking=false",
			"--dir", work, "--state-dir", filepath.Join(work, "chat-state"))
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		cancel()
		if err != nil {
			return 0, fmt.Errorf("chat -p run %d: %v\n%s", i+1, err, out.String())
		}
		if !bytes.Contains(out.Bytes(), []byte("Hi.")) {
			return 0, fmt.Errorf("chat -p run %d did not print the answer:\n%s", i+1, out.String())
		}
		times = append(times, d)
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}
