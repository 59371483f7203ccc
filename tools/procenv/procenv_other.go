//go:build !linux

package procenv

// Protect does nothing here: only Linux is hardened so far. (macOS shows a
// process's start-up environment to its user through sysctl KERN_PROCARGS2;
// PT_DENY_ATTACH would not hide that.)
func Protect() error { return nil }

// Wipe does nothing here (see Protect).
func Wipe([]string) error { return nil }
