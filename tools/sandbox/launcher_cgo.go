//go:build linux && cgo

// This file only makes cgo build launcher.c, the launcher that runs
// before the Go runtime (see Main).

package sandbox

import "C"
