package mcp

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
)

// maxToolName is the model APIs' limit on a tool name.
const maxToolName = 64

// sanitize maps s onto the tool-name alphabet [a-zA-Z0-9_-], one '_' per
// other character.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// shortHash is a stable 6-hex-digit tag of s, used to keep names that were
// shortened or that collided apart.
func shortHash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%06x", h.Sum32()&0xffffff)
}

// fitName returns name when it fits the limit, else a prefix of it with a
// hash of the whole original (orig) so two long names stay distinct.
func fitName(name, orig string) string {
	if len(name) <= maxToolName {
		return name
	}
	tag := "_" + shortHash(orig)
	return name[:maxToolName-len(tag)] + tag
}

// exposedNames maps each of a server's tool names to the name the model
// sees, mcp__<prefix>__<tool>, valid for the model APIs and unique among
// themselves and against taken (names of other tools). Deterministic: tools
// are named in sorted order, and a name that sanitising or shortening made
// collide gets a hash of the original tool name appended.
func exposedNames(prefix string, tools []string, taken func(string) bool) map[string]string {
	sorted := append([]string(nil), tools...)
	sort.Strings(sorted)
	out := make(map[string]string, len(sorted))
	used := map[string]bool{}
	free := func(n string) bool { return !used[n] && (taken == nil || !taken(n)) }
	for _, t := range sorted {
		if _, dup := out[t]; dup {
			continue
		}
		base := "mcp__" + prefix + "__" + sanitize(t)
		name := fitName(base, prefix+"/"+t)
		if !free(name) {
			tag := "_" + shortHash(t)
			if len(base)+len(tag) > maxToolName {
				base = base[:maxToolName-len(tag)]
			}
			name = base + tag
		}
		for n := 2; !free(name); n++ { // a hash collision too: count
			suffix := fmt.Sprintf("_%d", n)
			name = fitName(base, t)
			if len(name)+len(suffix) > maxToolName {
				name = name[:maxToolName-len(suffix)]
			}
			name += suffix
		}
		used[name] = true
		out[t] = name
	}
	return out
}

// serverPrefixes gives each server name its tool-name prefix: sanitised,
// at most 20 characters (so the tool part keeps most of the 64), unique.
func serverPrefixes(names []string) map[string]string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	out := make(map[string]string, len(sorted))
	used := map[string]bool{}
	for _, n := range sorted {
		p := sanitize(n)
		if len(p) > 20 {
			p = p[:13] + "_" + shortHash(n)
		}
		if p == "" {
			p = "server"
		}
		for i := 2; used[p]; i++ {
			p = fmt.Sprintf("%s%d", strings.TrimRight(p, "0123456789"), i)
		}
		used[p] = true
		out[n] = p
	}
	return out
}
