package providertest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func TestWaitRequestsWakesOnEachRequest(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "hi"}})
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := srv.WaitRequests(short, 1); err == nil {
		t.Fatal("WaitRequests returned before any request")
	}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done <- srv.WaitRequests(ctx, 1)
	}()
	// A request the fake refuses counts too.
	resp, err := http.Post(srv.OpenAIBaseURL()+"/chat/completions", "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
