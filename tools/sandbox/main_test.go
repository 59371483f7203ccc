package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the test binary be the sandbox launcher: Command starts
// /proc/self/exe with the launcher argument.
func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}
