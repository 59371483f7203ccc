//go:build linux && cgo

// The sandbox launcher, run before the Go runtime starts (see Main in
// launcher_linux.go, which does the same in Go). When the binary is
// started as `<self> __sandbox-exec -c <command>` with the policy in
// AGENT_LSP_SANDBOX_POLICY (policy.go, encode), this constructor
// removes the variable, sets up the namespaces' mounts and loopback,
// drops the capabilities it was given, restricts itself with the
// daemon's Landlock ruleset (an inherited descriptor) and execs bash.
// Only glibc passes argc/argv to constructors; elsewhere Main does it.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#define LANDLOCK_RULE_PATH_BENEATH 1
#define LL_EXECUTE (1ULL << 0)
#define LL_READ_FILE (1ULL << 2)
#define LL_READ_DIR (1ULL << 3)
#define LL_IOCTL_DEV (1ULL << 15)

struct landlock_path_beneath_attr {
	unsigned long long allowed_access;
	int parent_fd;
} __attribute__((packed));
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#endif
#ifndef PR_CAP_AMBIENT_CLEAR_ALL
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

#define POLICY_ENV "AGENT_LSP_SANDBOX_POLICY"
#define POLICY_MAGIC "agent-lsp-sandbox-v1"

extern char **environ;

// launcher_seccomp.c: the unix socket supervision's part.
int agent_lsp_listen_host_port(int port);
void agent_lsp_seccomp_handoff(const char *hex, int chan, const int *ports, int nports);

static void die(const char *what, const char *arg) {
	fprintf(stderr, "agent-lsp sandbox: %s%s%s: %s\n", what, arg ? " " : "", arg ? arg : "", strerror(errno));
	_exit(125);
}

static void mount_read_only(const char *path) {
	struct statvfs sv;
	if (mount(path, path, NULL, MS_BIND, NULL) != 0)
		die("bind-mounting", path);
	if (statvfs(path, &sv) != 0)
		die("statvfs", path);
	// A user namespace may not clear the flags the mount below has.
	unsigned long keep = sv.f_flag & (ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_NOATIME | ST_NODIRATIME | ST_RELATIME);
	if (mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | keep, NULL) != 0)
		die("remounting read-only", path);
}

// write_proc writes text to one of the process's own /proc files.
static void write_proc(const char *path, const char *text) {
	int f = open(path, O_WRONLY | O_CLOEXEC);
	if (f < 0)
		die("setting up the user namespace: opening", path);
	if (write(f, text, strlen(text)) != (ssize_t)strlen(text))
		die("setting up the user namespace: writing", path);
	close(f);
}

// self_map maps an ordinary user's own uid and gid ("uid:gid") into the
// launcher's new user namespace, which it entered unmapped: the agent is
// non-dumpable, so it could not write a child's maps between fork and
// exec, and the launcher, dumpable since its exec and holding
// CAP_SYS_ADMIN in the namespace, may map its own ids (setgroups denied
// first, the kernel's rule for an unprivileged gid_map).
static void self_map(const char *ids) {
	char line[64];
	unsigned long uid, gid;
	if (sscanf(ids, "%lu:%lu", &uid, &gid) != 2) {
		errno = EINVAL;
		die("policy: map", ids);
	}
	write_proc("/proc/self/setgroups", "deny");
	snprintf(line, sizeof line, "%lu %lu 1", uid, uid);
	write_proc("/proc/self/uid_map", line);
	snprintf(line, sizeof line, "%lu %lu 1", gid, gid);
	write_proc("/proc/self/gid_map", line);
}

// grant adds a rule for a file system mounted in the command's own
// namespace (its /proc, its /dev/shm): a rule on the host's directory
// below does not cover a mount over it (Landlock skips hidden mount
// points when it walks up).
static void grant(int ruleset, const char *path, unsigned long long access) {
	struct landlock_path_beneath_attr attr;
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		die("opening", path);
	attr.allowed_access = access;
	attr.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0) != 0)
		die("landlock: granting", path);
	close(fd);
}

// limit_pids caps the PID namespace's process numbers (Linux 6.14+ has a
// pid_max per PID namespace): RLIMIT_NPROC does not bind root, whose
// user is the kernel's own whatever the namespace. Older kernels have no
// per-namespace pid_max; RLIMIT_NPROC is then the only limit.
static void limit_pids(unsigned long long nproc) {
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%llu", nproc + 1);
	int f = open("/proc/sys/kernel/pid_max", O_WRONLY | O_CLOEXEC);
	if (f < 0)
		return;
	if (write(f, buf, (size_t)n) != n && errno != EINVAL && errno != EPERM && errno != EACCES)
		die("limiting the PID namespace's processes", NULL);
	close(f);
}

static void set_limit(int resource, unsigned long long value, const char *what) {
	struct rlimit rl = {value, value};
	struct rlimit cur;
	if (value == 0)
		return;
	if (getrlimit(resource, &cur) == 0 && cur.rlim_max != RLIM_INFINITY && cur.rlim_max < value)
		rl.rlim_cur = rl.rlim_max = cur.rlim_max;
	if (setrlimit(resource, &rl) != 0)
		die("setting the limit of", what);
}

// A mount point cannot be renamed, removed or replaced (EBUSY): pinning
// a git dir keeps it the one whose hooks and config are mounted read-only
// next, while what is inside stays writable.
static void mount_pinned(const char *path) {
	if (mount(path, path, NULL, MS_BIND, NULL) != 0)
		die("pinning", path);
}

static void loopback_up(void) {
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("loopback: socket", NULL);
	memset(&ifr, 0, sizeof ifr);
	strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
		die("loopback: reading flags", NULL);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
		die("loopback: bringing lo up", NULL);
	close(fd);
}

#ifdef __GLIBC__
__attribute__((constructor)) static void agent_lsp_sandbox_launch(int argc, char **argv, char **envp) {
	(void)envp;
	if (argc < 2 || strcmp(argv[1], "__sandbox-exec") != 0 || getenv("AGENT_LSP_SANDBOX_GO_LAUNCHER") != NULL)
		return;
	const char *raw = getenv(POLICY_ENV);
	if (raw == NULL) {
		errno = EINVAL;
		die("no policy in", POLICY_ENV);
	}
	char *policy = strdup(raw);
	if (policy == NULL || unsetenv(POLICY_ENV) != 0)
		die("reading the policy", NULL);

	const char *shell = NULL;
	int fd = -1, ns = 0, lo = 0;
	const char *map_ids = NULL;
	unsigned long flags = 0;
	unsigned long long handled = 0, nproc = 0, data = 0;
	char **ro = calloc(strlen(policy) / 4 + 2, sizeof *ro);
	char **pin = calloc(strlen(policy) / 4 + 2, sizeof *pin);
	int nro = 0, npin = 0, first = 1;
	const char *seccomp = NULL;
	int chan = -1, nports = 0;
	int *ports = calloc(strlen(policy) / 6 + 1, sizeof *ports);
	if (ro == NULL || pin == NULL || ports == NULL)
		die("reading the policy", NULL);
	for (char *save = NULL, *line = strtok_r(policy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (first) {
			if (strcmp(line, POLICY_MAGIC) != 0) {
				errno = EINVAL;
				die("policy: not a", POLICY_MAGIC " policy");
			}
			first = 0;
		} else if (strncmp(line, "shell=", 6) == 0) {
			shell = line + 6;
		} else if (strncmp(line, "fd=", 3) == 0) {
			fd = atoi(line + 3);
		} else if (strncmp(line, "flags=", 6) == 0) {
			flags = strtoul(line + 6, NULL, 10);
		} else if (strncmp(line, "ns=", 3) == 0) {
			ns = line[3] == '1';
		} else if (strncmp(line, "lo=", 3) == 0) {
			lo = line[3] == '1';
		} else if (strncmp(line, "handled=", 8) == 0) {
			handled = strtoull(line + 8, NULL, 10);
		} else if (strncmp(line, "map=", 4) == 0) {
			map_ids = line[4] ? line + 4 : NULL;
		} else if (strncmp(line, "nproc=", 6) == 0) {
			nproc = strtoull(line + 6, NULL, 10);
		} else if (strncmp(line, "data=", 5) == 0) {
			data = strtoull(line + 5, NULL, 10);
		} else if (strncmp(line, "pin=", 4) == 0) {
			pin[npin++] = line + 4;
		} else if (strncmp(line, "ro=", 3) == 0) {
			ro[nro++] = line + 3;
		} else if (strncmp(line, "seccomp=", 8) == 0) {
			seccomp = line + 8;
		} else if (strncmp(line, "chan=", 5) == 0) {
			chan = atoi(line + 5);
		} else if (strncmp(line, "port=", 5) == 0) {
			ports[nports++] = atoi(line + 5);
		} else {
			errno = EINVAL;
			die("policy: unknown line", line);
		}
	}
	if (shell == NULL || fd < 0) {
		errno = EINVAL;
		die("policy: no shell or ruleset", NULL);
	}
	if (map_ids != NULL)
		self_map(map_ids);
	if (ns) {
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			die("making mounts private", NULL);
		for (int i = 0; i < npin; i++)
			mount_pinned(pin[i]);
		for (int i = 0; i < nro; i++)
			mount_read_only(ro[i]);
		// The PID namespace's own procfs: processes outside are not there.
		if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
			die("mounting /proc for the PID namespace", NULL);
		grant(fd, "/proc", (LL_EXECUTE | LL_READ_FILE | LL_READ_DIR) & handled);
		if (nproc > 0)
			limit_pids(nproc);
		// POSIX shared memory of its own, gone with the command, at most
		// as large as one process's memory limit.
		if (access("/dev/shm", F_OK) == 0) {
			char opts[64];
			if (data > 0)
				snprintf(opts, sizeof opts, "mode=1777,size=%llu", data);
			else
				snprintf(opts, sizeof opts, "mode=1777");
			if (mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
				die("mounting a private /dev/shm", NULL);
			grant(fd, "/dev/shm", handled & ~LL_IOCTL_DEV);
		}
		if (lo)
			loopback_up();
		for (int i = 0; i < nports; i++)
			ports[i] = agent_lsp_listen_host_port(ports[i]);
	}
	set_limit(RLIMIT_NPROC, nproc, "processes");
	set_limit(RLIMIT_DATA, data, "memory");
	// Orphans of the command (a daemonizing `( cmd & )`) are re-parented
	// to bash, not to the host's init: the command's processes stay one
	// tree while it runs, which the freeze around the editor's edits
	// walks (tools/freeze_linux.go). Under a PID namespace bash is init
	// already; the setting survives the exec.
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
		die("becoming the child subreaper", NULL);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
		die("dropping ambient capabilities", NULL);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		die("no_new_privs", NULL);
	if (syscall(SYS_landlock_restrict_self, fd, flags) != 0)
		die("landlock: restrict", NULL);
	close(fd);
	if (seccomp != NULL)
		agent_lsp_seccomp_handoff(seccomp, chan, ports, ns ? nports : 0);

	char **args = calloc((size_t)argc, sizeof *args);
	if (args == NULL)
		die("exec", shell);
	args[0] = "bash";
	for (int i = 2; i < argc; i++)
		args[i - 1] = argv[i];
	execve(shell, args, environ);
	die("exec", shell);
}
#endif
