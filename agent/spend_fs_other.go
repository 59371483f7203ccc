//go:build !unix

package agent

import "io/fs"

// ownedByMe: without Unix owners, a file in the user's own ledger
// directory is taken as the user's.
func ownedByMe(fs.FileInfo) bool { return true }

// unlinked: without a link count, the kept file is taken as named still.
func unlinked(fs.FileInfo) bool { return false }
