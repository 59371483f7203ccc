package sandbox

import (
	"fmt"
	"strings"
)

// forkWords mark a line about starting a process or thread; with
// "resource temporarily unavailable" (EAGAIN) on the same line it is a
// fork RLIMIT_NPROC refused (bash: "fork: retry: Resource temporarily
// unavailable"; Go: "fork/exec ...: resource temporarily unavailable";
// pthread_create, posix_spawn, clone).
var forkWords = []string{"fork", "pthread_create", "spawn", "clone", "thread"}

// hitProcessLimit reports whether output shows a refused fork.
func hitProcessLimit(output string) bool {
	for _, line := range strings.Split(strings.ToLower(output), "\n") {
		if strings.Contains(line, "resource temporarily unavailable") && containsAny(line, forkWords) {
			return true
		}
	}
	return false
}

// memoryLimitPhrases are how programs report an allocation refused by
// RLIMIT_DATA (ENOMEM).
var memoryLimitPhrases = []string{
	"Cannot allocate memory", "MemoryError", "out of memory", "memory exhausted",
	"bad_alloc", "cannot allocate memory", "ENOMEM", "Out of memory",
}

// explainLimits says which of the command's limits its output shows it
// hit, "" when none.
func (s *Sandbox) explainLimits(output string) []string {
	var out []string
	if s.namespaces && hitProcessLimit(output) {
		out = append(out, fmt.Sprintf("stopped by the sandbox: the command reached its process limit (%d processes at once; the user can raise sandbox.processLimit / --sandbox-process-limit)", s.settings.ProcessLimit))
	}
	if containsAny(output, memoryLimitPhrases) {
		out = append(out, fmt.Sprintf("stopped by the sandbox: a process reached its memory limit (%d MiB; the user can raise sandbox.memoryLimitMB / --sandbox-memory-limit-mb)", s.settings.MemoryLimitMB))
	}
	return out
}
