//go:build unix

package agent

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether this process's user owns fi's file: a file
// another account put in the ledger's directory is not the ledger's to
// remove.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// unlinked reports whether fi (an open file's) has no name left: the
// day's file was removed, or another renamed over it.
func unlinked(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 0
}
