//go:build !linux

package main

import (
	"os"
	"testing"
)

// openPTY skips: the tests open a pseudo-terminal the Linux way
// (/dev/ptmx, TIOCGPTN, /dev/pts/N).
func openPTY(t *testing.T, cols uint16) (term, reader *os.File) {
	t.Helper()
	t.Skip("pseudo-terminals are opened the Linux way in these tests")
	return nil, nil
}
