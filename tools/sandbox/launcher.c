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
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
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
	unsigned long flags = 0;
	char **ro = calloc(strlen(policy) / 4 + 2, sizeof *ro);
	int nro = 0, first = 1;
	const char *seccomp = NULL;
	int chan = -1, nports = 0;
	int *ports = calloc(strlen(policy) / 6 + 1, sizeof *ports);
	if (ro == NULL || ports == NULL)
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
	if (ns) {
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			die("making mounts private", NULL);
		for (int i = 0; i < nro; i++)
			mount_read_only(ro[i]);
		// The PID namespace's own procfs: processes outside are not there.
		if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
			die("mounting /proc for the PID namespace", NULL);
		if (lo)
			loopback_up();
		for (int i = 0; i < nports; i++)
			ports[i] = agent_lsp_listen_host_port(ports[i]);
	}
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
