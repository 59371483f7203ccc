//go:build unix

package permission

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs refuses a user rules file another account owns or others may
// write: a config directory reached through someone else's HOME (sudo
// without -H) must not decide for us.
func ownedByUs(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Errorf("owned by uid %d, not by you (uid %d): ignored", st.Uid, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("writable by others (mode %v): ignored", fi.Mode().Perm())
	}
	return nil
}
