// Package startup measures and prints what the start-up benchmarks of
// bench/lsp and bench/acp compare: the median time from spawn to the
// initialize reply and the median idle RSS, for our binary and a
// reference server in the same run, with their ratio.
package startup

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

// Result is one server's medians.
type Result struct {
	Name  string
	Spawn time.Duration // median spawn → initialize reply
	RSS   int64         // median RSS after initialize, in bytes
}

// Measure runs once n times (each a fresh process: spawn, initialize,
// measure, shut down) and keeps the medians.
func Measure(name string, n int, once func() (time.Duration, int64, error)) (Result, error) {
	var spawns []time.Duration
	var rsss []int64
	for i := 0; i < n; i++ {
		d, rss, err := once()
		if err != nil {
			return Result{}, fmt.Errorf("%s run %d: %w", name, i+1, err)
		}
		spawns = append(spawns, d)
		rsss = append(rsss, rss)
	}
	slices.Sort(spawns)
	slices.Sort(rsss)
	return Result{Name: name, Spawn: spawns[len(spawns)/2], RSS: rsss[len(rsss)/2]}, nil
}

// Rows names the table's rows; a target, when set, adds a column with it.
type Rows struct {
	Spawn, RSS             string
	SpawnTarget, RSSTarget string
}

// Print writes the table: a column per result, the ratio of the first to
// the second when there are two, then the targets, then note.
func Print(out io.Writer, rs []Result, n int, rows Rows, note string) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	targets := rows.SpawnTarget != "" || rows.RSSTarget != ""
	header := fmt.Sprintf("start-up (median of %d)\t", n)
	for _, r := range rs {
		header += r.Name + "\t"
	}
	if len(rs) == 2 {
		header += "ratio\t"
	}
	if targets {
		header += "target\t"
	}
	fmt.Fprintln(w, header)
	row := func(label string, vals []float64, unit, target string) {
		line := label + "\t"
		for _, v := range vals {
			line += fmt.Sprintf("%.1f %s\t", v, unit)
		}
		if len(vals) == 2 {
			line += fmt.Sprintf("%.3f\t", vals[0]/vals[1])
		}
		if targets {
			line += target + "\t"
		}
		fmt.Fprintln(w, line)
	}
	var spawn, rss []float64
	for _, r := range rs {
		spawn = append(spawn, float64(r.Spawn.Microseconds())/1000)
		rss = append(rss, float64(r.RSS)/(1<<20))
	}
	row(rows.Spawn, spawn, "ms", rows.SpawnTarget)
	row(rows.RSS, rss, "MiB", rows.RSSTarget)
	_ = w.Flush()
	if note != "" {
		fmt.Fprintln(out, note)
	}
}
