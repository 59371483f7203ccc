package main

import (
	"fmt"
	"io"
	"time"
)

// The acceptance goals of issue 15.
const (
	goalCPUPerMiB = 10 * time.Millisecond
	goalPeak      = 3.0      // times the file size, above idle
	goalAfter     = 20 * mib // RSS above idle after the edit
)

func report(w io.Writer, rows []row, settle time.Duration, n int) {
	fmt.Fprintln(w, "one-character edit_file on a big file: agent-lsp (daemon with an applyEdit client, chat -p --yes)")
	fmt.Fprintf(w, "vs a plain read-replace-write in Go (ref), same machine, same file size; %d run(s): CPU the least, memory the median\n", n)
	head := "%-8s %-6s | %9s %8s %6s %4s | %10s %9s %6s %5s %4s | %10s %9s %4s\n"
	line := "%-8s %-6s | %9s %8s %6s %4s | %10s %9s %6s %5.1f %4s | %10s %9s %4s\n"
	fmt.Fprintf(w, head, "", "", "CPU/MiB", "", "", "", "peak RSS", "above", "idle", "", "", "RSS after", "above", "idle")
	fmt.Fprintf(w, head, "size", "path", "agent", "ref", "ratio", "goal", "agent", "ref", "ratio", "×file", "goal", "agent", "ref", "goal")
	var notes []string
	for _, r := range rows {
		for _, p := range []struct {
			name string
			s    sample
		}{{"daemon", r.daemon}, {"chat", r.chatIn}} {
			mibs := float64(r.size) / mib
			cpu := time.Duration(float64(p.s.cpu) / mibs)
			refCPU := time.Duration(float64(r.ref.cpu) / mibs)
			peak, refPeak := p.s.peak-p.s.idle, r.ref.peak-r.ref.idle
			after, refAfter := p.s.after-p.s.idle, r.ref.after-r.ref.idle
			times := float64(peak) / float64(r.size)
			fmt.Fprintf(w, line, fmt.Sprintf("%g MiB", mibs), p.name,
				msec(cpu), msec(refCPU), ratio(float64(cpu), float64(refCPU)), verdict(cpu <= goalCPUPerMiB),
				mbytes(peak), mbytes(refPeak), ratio(float64(peak), float64(refPeak)), times, verdict(times <= goalPeak),
				mbytes(after), mbytes(refAfter), verdict(after <= goalAfter))
			if p.s.note != "" {
				notes = append(notes, fmt.Sprintf("%g MiB %s: %s", mibs, p.name, p.s.note))
			}
		}
	}
	fmt.Fprintf(w, "goals: CPU ≤ %s per MiB; peak ≤ %.0f× the file size above idle; back within %s of idle\n",
		msec(goalCPUPerMiB), goalPeak, mbytes(goalAfter))
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
	fmt.Fprintf(w, "CPU: the edit's prompt minus the same prompt editing a 1 KiB file (daemon: /proc schedstat before the prompt and %s after\n", settle)
	fmt.Fprintln(w, "its answer; chat: rusage at exit); ref: getrusage around read+replace+write. Idle: RSS before the prompt (daemon) or at")
	fmt.Fprintf(w, "the chat's first model request; peak: VmHWM since then (clear_refs); after: RSS %s after the edit.\n", settle)
	fmt.Fprintln(w, "The daemon's client writes each applyEdit to disk and reports the file saved (didSave) when the daemon's")
	fmt.Fprintln(w, "next model request shows it has moved on: the daemon has no reason to keep the text.")
	reportOpen(w, rows, settle)
}

// reportOpen prints the open-file rows (issue 27): the daemon's peak from
// a didOpen and a whole-text didChange, against the reference edit's.
func reportOpen(w io.Writer, rows []row, settle time.Duration) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "a big file opened in the editor (didOpen), changed as a whole (didChange with the whole text), closed (didClose)")
	head := "%-8s | %10s %9s %5s %4s | %10s | %10s %8s %4s\n"
	fmt.Fprintf(w, head, "", "peak RSS", "above", "idle", "", "open", "closed", "back", "")
	fmt.Fprintf(w, head, "size", "daemon", "ref", "×file", "goal", "above idle", "above idle", "after", "goal")
	for _, r := range rows {
		o := r.opened
		peak := o.peak - o.idle
		times := float64(peak) / float64(r.size)
		closed := o.closed - o.idle
		fmt.Fprintf(w, "%-8s | %10s %9s %5.1f %4s | %10s | %10s %8s %4s\n", fmt.Sprintf("%g MiB", float64(r.size)/mib),
			mbytes(peak), mbytes(r.ref.peak-r.ref.idle), times, verdict(times <= goalPeak),
			mbytes(o.open-o.idle), mbytes(closed), o.back.Round(10*time.Millisecond), verdict(closed <= closedGoal))
	}
	fmt.Fprintf(w, "goals: peak ≤ %.0f× the file above idle; back within %s of idle after the close, within %s\n",
		goalPeak, mbytes(closedGoal), closedWait)
	fmt.Fprintf(w, "idle: RSS %s after initialize; peak: VmHWM from the didOpen to %s after the change; open: RSS then;\n", settle, settle)
	fmt.Fprintln(w, "closed: RSS polled every 50 ms after the didClose was handled, until within the goal (after: how long that took).")
}

func verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fx", a/b)
}

func msec(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func mbytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/mib) }
