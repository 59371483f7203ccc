// Package procenv guards what the operating system shows other processes
// of this process's own start-up environment.
//
// On Linux, /proc/<pid>/environ (and so `ps eww`) shows the memory between
// the kernel's env_start and env_end: the environment block the process was
// started with. Unsetting a variable in Go (os.Unsetenv) changes Go's copy
// only; the block keeps the value. Two defences, both here:
//
//   - Protect makes the process non-dumpable (prctl PR_SET_DUMPABLE 0, as
//     ssh-agent does): its /proc files then belong to root, and a process
//     of the same user can neither read them nor ptrace it. Root
//     (CAP_SYS_PTRACE) still can.
//   - Wipe overwrites the values of named variables in the block itself,
//     through /proc/self/mem, so even root reads only zero bytes there.
//
// Go's runtime copies the environment out of the block at start (Go 1.26:
// runtime.goenvs_unix uses gostring, which copies; only argv is taken
// without a copy), so a wipe does not change what os.Getenv returns. A
// caller keeping a value across a wipe copies it all the same
// (strings.Clone): that must not hang on a runtime detail.
//
// On other systems both are no-ops.
package procenv
