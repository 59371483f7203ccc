//go:build !unix

package mcp

import "os/exec"

// ownProcessGroup is a no-op where process groups do not exist; Close
// still ends the server itself through the SDK's transport.
func ownProcessGroup(*exec.Cmd) {}

func killProcessGroup(int) error { return nil }
