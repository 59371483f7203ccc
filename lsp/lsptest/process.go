package lsptest

import (
	"bytes"
	"sync"
)

// Output collects what a child process writes (its stderr, say) while the
// test reads it: exec's copying goroutine writes, the test calls String.
type Output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

// String is everything written so far.
func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
