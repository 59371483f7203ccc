//go:build linux

package mcp

import "syscall"

// setDeathSignal has the kernel SIGKILL the server when the daemon dies,
// even by SIGKILL, when no Close runs. It fires when the forking thread
// exits: procgroup_spawner.go keeps that thread alive as long as the
// daemon. Only the server itself gets it; what the server started (npx's
// node) is reached by the process-group kill of an orderly Close.
func setDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
