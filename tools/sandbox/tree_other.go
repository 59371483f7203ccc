//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"os/exec"
)

// ContainTree: this platform has no PID namespaces; cmd is left as it
// was (its caller still kills the process group it made).
func ContainTree(context.Context, *exec.Cmd) (started func(), err error) {
	return nil, errors.New("no PID namespaces on this platform")
}
