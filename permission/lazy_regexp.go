package permission

import (
	"regexp"
	"sync"
)

// LazyRegexp compiles expr the first time it is used, not at start-up:
// every run of the binary (the daemon's initialize, chat -p, a grep)
// imports this package, and most never rate an inline script; compiled
// at package init these cost 1.5 ms and 2,000 allocations per process.
// The sandbox's explanations of a refusal use it too: its launcher is
// this binary, started for every command.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
