package tools

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// grepCollector gathers the grep tool's output from the concurrent search.
// Output is sorted by path (the walk's order is not stable), and only the
// first grepMaxMatches matching lines in that order are shown, so it keeps
// just enough files: when it holds well over the cap, it drops the files
// that sort last.
type grepCollector struct {
	ws      *Workspace
	context int
	re      *regexp.Regexp

	mu    sync.Mutex
	files []grepFile
	held  int // matching lines held in files
}

type grepFile struct {
	rel     string
	lines   []grepLine
	matches int // matching lines held (the first grepMaxMatches of the file)
	size    int64
}

// add takes one file's matches; it renders them now because fm.lines is
// only valid during the call.
func (c *grepCollector) add(fm *fileMatches) {
	rel := c.ws.Rel(fm.abs)
	f := grepFile{rel: rel, lines: grepOutputLines(rel, fm, c.context, c.re), matches: len(fm.nums)}
	if fi, err := c.ws.Stat(fm.abs); err == nil {
		f.size = fi.Size()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.files = append(c.files, f)
	c.held += f.matches
	if c.held > 2*grepMaxMatches {
		c.sortFiles()
		held := 0
		for i, f := range c.files {
			held += f.matches
			if held >= grepMaxMatches {
				clear(c.files[i+1:])
				c.files = c.files[:i+1]
				break
			}
		}
		c.held = held
	}
}

func (c *grepCollector) sortFiles() {
	slices.SortFunc(c.files, func(a, b grepFile) int { return strings.Compare(a.rel, b.rel) })
}

// render writes the held files in path order up to the caps, then a note
// on what was left out.
func (c *grepCollector) render(stats SearchStats) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sortFiles()
	var b strings.Builder
	shown := 0
	full := false
	var large []grepFile // shown files over the size limit
	for _, f := range c.files {
		if full {
			break
		}
		if f.size > MaxFileBytes {
			large = append(large, f)
		}
		if c.context > 0 && b.Len() > 0 {
			b.WriteString("--\n")
		}
		for _, l := range f.lines {
			if l.match && shown == grepMaxMatches {
				full = true
				break
			}
			s := l.String()
			if b.Len()+len(s) > grepMaxOutput {
				full = true
				break
			}
			b.WriteString(s)
			b.WriteByte('\n')
			if l.match {
				shown++
			}
		}
	}
	if more := stats.MatchedLines - shown; more > 0 {
		fmt.Fprintf(&b, "[%d more matches not shown; %d matching lines in %d files in all. Narrow the pattern, path or glob.]\n",
			more, stats.MatchedLines, stats.MatchedFiles)
	}
	writeLargeNote(&b, large)
	return strings.TrimSuffix(b.String(), "\n")
}

// maxLargeNamed bounds the files named in the note on large files.
const maxLargeNamed = 5

// writeLargeNote tells the model which files shown are over the size
// policy's limit: grep streams them (memory bounded by the longest line),
// but edit_file and write_file refuse them and read_file reads them only a
// window at a time, which is what the line numbers above are for.
func writeLargeNote(b *strings.Builder, large []grepFile) {
	if len(large) == 0 {
		return
	}
	names := make([]string, 0, min(len(large), maxLargeNamed))
	for _, f := range large[:min(len(large), maxLargeNamed)] {
		names = append(names, fmt.Sprintf("%s (%s)", f.rel, formatBytes(f.size)))
	}
	more := ""
	if len(large) > maxLargeNamed {
		more = fmt.Sprintf(" and %d more", len(large)-maxLargeNamed)
	}
	fmt.Fprintf(b, "[over the %s size limit: %s%s. read_file with offset and limit reads the lines around a match; edit_file and write_file refuse these files.]\n",
		formatBytes(MaxFileBytes), strings.Join(names, ", "), more)
}

// grepOutputLines renders one file's matches with their context as output
// lines: "rel:n: text" for matches, "rel-n- text" for context, "--"
// between groups that are not adjacent. It reads the file's lines only up
// to the last one shown.
func grepOutputLines(rel string, fm *fileMatches, context int, re *regexp.Regexp) []grepLine {
	nums := fm.nums
	if len(nums) == 0 {
		return nil
	}
	// Groups of lines to show: each match with its context, overlapping
	// or adjacent ones merged.
	type group struct{ lo, hi int }
	var groups []group
	for i := 0; i < len(nums); {
		lo, hi := max(1, nums[i]-context), nums[i]+context
		j := i + 1
		for j < len(nums) && nums[j]-context <= hi+1 {
			hi = nums[j] + context
			j++
		}
		groups = append(groups, group{lo, hi})
		i = j
	}
	var out []grepLine
	g, k := 0, 0 // the group being shown, the next match in nums
	last := 0    // last line number emitted
	fm.lines(func(no int, line []byte) bool {
		for g < len(groups) && no > groups[g].hi {
			g++
		}
		if g == len(groups) {
			return false
		}
		if no < groups[g].lo {
			return true
		}
		if no == groups[g].lo && context > 0 && last > 0 && no > last+1 {
			out = append(out, grepLine{sep: true})
		}
		isMatch := k < len(nums) && nums[k] == no
		if isMatch {
			k++
		}
		out = append(out, grepLine{rel: rel, no: no, match: isMatch, text: cutGrepLine(line, isMatch, re)})
		last = no
		return !(g == len(groups)-1 && no == groups[g].hi)
	})
	return out
}

// grepLine is one line of grep output.
type grepLine struct {
	rel   string
	no    int
	text  string
	match bool
	sep   bool // the "--" between groups
}

func (l grepLine) String() string {
	switch {
	case l.sep:
		return "--"
	case l.match:
		return fmt.Sprintf("%s:%d: %s", l.rel, l.no, l.text)
	}
	return fmt.Sprintf("%s-%d- %s", l.rel, l.no, l.text)
}

// cutGrepLine returns a line for display: without a trailing CR, valid
// UTF-8, and when longer than grepMaxLineBytes cut to a window around its
// first match (minified files have one huge line).
func cutGrepLine(line []byte, isMatch bool, re *regexp.Regexp) string {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) <= grepMaxLineBytes {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	from := 0
	if isMatch {
		if loc := re.FindIndex(line); loc != nil && loc[1] > grepMaxLineBytes {
			from = max(0, loc[0]-grepMaxLineBytes/3)
		}
	}
	to := min(len(line), from+grepMaxLineBytes)
	from, to = runeStartAtOrBefore(line, from), runeStartAtOrBefore(line, to)
	var b strings.Builder
	if from > 0 {
		fmt.Fprintf(&b, "[%d bytes cut] …", from)
	}
	b.WriteString(strings.ToValidUTF8(string(line[from:to]), "\uFFFD"))
	if to < len(line) {
		fmt.Fprintf(&b, "… [%d bytes cut]", len(line)-to)
	}
	return b.String()
}

func countNewlines(b []byte) int { return bytes.Count(b, []byte{'\n'}) }

// runeStartAtOrBefore moves i back to the start of the rune it falls in.
func runeStartAtOrBefore(b []byte, i int) int {
	for i > 0 && i < len(b) && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}
