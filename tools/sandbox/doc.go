// Package sandbox confines the shell commands the agent runs (run_bash)
// with the operating system's own mechanisms, so that the workspace
// boundary holds even when a command does something the risk rules did
// not foresee.
//
// On Linux it uses Landlock (through github.com/landlock-lsm/go-landlock)
// and, where the kernel allows unprivileged user namespaces, a new user,
// mount, PID, IPC and network namespace per command, for root and
// ordinary users alike (an ordinary user's launcher starts unmapped and
// maps its own ids once it has exec'd: the daemon is non-dumpable, so it
// could not write them between fork and exec):
//
//   - writes: the workspace roots, a private temp dir (TMPDIR, 0700,
//     removed by Close) and configured extra dirs; the git metadata in
//     them (every path git takes code or configuration from: hooks,
//     config, info, submodules' and worktrees' git dirs, core.hooksPath
//     targets, .git files; see gitGuard) is bind-mounted read-only, and
//     the git dirs are bind-mounted onto themselves so that they cannot
//     be moved or replaced (Landlock can only grant, and a grant on the
//     workspace covers everything below it, so the mounts are what keeps
//     those out; Landlock forbids the sandboxed process to unmount them);
//     protected paths a mount cannot hold (a missing commondir, a
//     workspace's .git where there is no repository, a symlinked hooks
//     dir) are watched while the command runs, and a command that
//     changes one is stopped and the change undone (tripwire); the
//     protected workspace files (permission.ProtectedFiles: .vscode/,
//     .envrc, exrc, git hook managers' configs, .mcp.json, ...) are kept
//     the same way in each writable dir and the checkouts found in it
//     (workspace_files.go);
//   - reads: everything except the secret stores (~/.ssh, ~/.aws, ...):
//     the read grants are an allow-list that covers / minus those paths
//     (their parent directories can be listed, not read);
//   - network: "local" keeps the command in an empty network namespace
//     where only lo is up, "deny" leaves even lo down, "allow" shares the
//     host's network;
//   - unix sockets: a command connects only to sockets in the workspace,
//     its temp dir and Settings.AllowSockets (an editor's RPC socket,
//     ssh-agent, D-Bus or docker.sock are out of reach), through a
//     seccomp filter whose connect() calls the daemon answers
//     (sockets_linux.go); unix datagram sockets and io_uring are refused;
//     Settings.HostPorts are forwarded from the command's loopback to the
//     host's (hostports_linux.go);
//   - the command's own /proc (granted by the launcher: a rule on the
//     host's /proc does not reach a mount over it), /dev/shm (a tmpfs)
//     and System V IPC;
//   - limits: Settings.ProcessLimit through RLIMIT_NPROC in the user
//     namespace and the PID namespace's pid_max (RLIMIT_NPROC never binds
//     root), Settings.MemoryLimitMB through RLIMIT_DATA;
//   - build caches (GOCACHE, npm, pip, ...) in a per-workspace cache dir
//     (caches.go), as the user's own caches stay read-only;
//   - Landlock's ptrace scoping keeps a sandboxed process from reading
//     the daemon's /proc/<pid>/environ or memory, and its signal scoping
//     from signalling processes outside the sandbox.
//
// A Landlock ruleset binds the process that applies it, for good, so the
// daemon never applies one to itself: it builds the ruleset, then starts
// its own executable as a small launcher that inherits the ruleset's
// descriptor, reads the rest of the policy from an environment variable it
// removes, sets up the namespaces, restricts itself and execs bash. With
// cgo the launcher is launcher.c, a constructor that runs before the Go
// runtime starts (a few milliseconds less per command); without, it is
// Main, called first thing in main and in TestMain.
//
// A command an ACP client shows in its own terminal is handed over, not
// run by the client: the client runs this binary as a stub (AttachArg)
// that receives the prepared command, the ruleset's descriptor and the
// daemon's scrubbed environment over a unix socket and starts the same
// launcher (handoff_linux.go, attach_linux.go, attached_linux.go).
//
// Where Landlock is missing the sandbox reports itself unavailable (with
// the reason) and commands run unconfined, under approvals only; the
// caller says so to the user.
package sandbox
