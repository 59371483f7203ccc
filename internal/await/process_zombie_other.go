//go:build unix && !linux && !darwin

package await

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// zombie reports whether pid has exited but is not reaped yet, as ps(1)
// shows it (state Z): the BSDs' process tables differ by system, ps reads
// each one.
func zombie(pid int) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err == nil && strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}
