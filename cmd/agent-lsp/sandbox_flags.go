package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// envForceNoSandbox makes the chat and ACP behave as on a kernel without
// Landlock (the fallback path, for tests and for trying it out).
const envForceNoSandbox = "AGENT_LSP_SANDBOX_UNAVAILABLE"

// registerSandboxFlags adds the command sandbox's flags, the same for the
// chat and for ACP, filling st (which starts at the defaults).
func registerSandboxFlags(fs *flag.FlagSet, st *sandbox.Settings, autoAllow *bool) {
	st.Mode, st.Network = sandbox.ModeWorkspaceWrite, sandbox.NetworkLocal
	fs.Func("sandbox", "OS sandbox for commands, those an ACP client runs in its terminal too: workspace-write (default), read-only or off", func(v string) error {
		m, err := sandbox.ParseMode(v)
		st.Mode = m
		return err
	})
	fs.Func("sandbox-network", "sandboxed commands' network: local (loopback only, default), allow or deny", func(v string) error {
		n, err := sandbox.ParseNetwork(v)
		st.Network = n
		return err
	})
	fs.Func("sandbox-writable", "an extra directory sandboxed commands may write (repeatable; ~/ is the home directory)", func(v string) error {
		st.WritableDirs = append(st.WritableDirs, v)
		return nil
	})
	fs.Func("sandbox-host-port", "a TCP port of the host's loopback sandboxed commands may reach under network local, e.g. 5432 (repeatable)", func(v string) error {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return fmt.Errorf("%q is not a TCP port (1-65535)", v)
		}
		st.HostPorts = append(st.HostPorts, p)
		return nil
	})
	fs.Func("sandbox-allow-socket", "a unix socket outside the workspace sandboxed commands may connect to (repeatable; absolute or ~/)", func(v string) error {
		st.AllowSockets = append(st.AllowSockets, v)
		return (sandbox.Settings{AllowSockets: []string{v}}).Validate()
	})
	fs.Func("protect", "a workspace file commands may not change and writing which is asked every time, as .vscode/ or .envrc are: a path relative to any workspace directory, dir/ for a whole directory, * in its last part (repeatable)", func(v string) error {
		st.ProtectedFiles = append(st.ProtectedFiles, v)
		_, err := permission.NewProtectedFiles([]string{v})
		return err
	})
	fs.IntVar(&st.ProcessLimit, "sandbox-process-limit", sandbox.DefaultProcessLimit, "processes one sandboxed command may run at once")
	fs.IntVar(&st.MemoryLimitMB, "sandbox-memory-limit-mb", sandbox.DefaultMemoryLimitMB, "memory (MiB) each process of a sandboxed command may allocate")
	fs.BoolVar(autoAllow, "sandbox-auto-allow", false, "run sandboxed commands below HIGH risk without asking (HIGH still asks)")
}
