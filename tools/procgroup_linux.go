package tools

import "syscall"

// diesWithParent makes the kernel send the child SIGKILL when the thread
// that started it exits (runInGroup keeps that thread until Wait).
func diesWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
