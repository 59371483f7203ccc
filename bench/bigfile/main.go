// Command bigfile measures a one-character edit_file on big files (1, 5
// and 20 MiB by default) through the daemon and through the terminal
// chat, against a plain read-replace-write in Go as the reference, all in
// one run on the same files.
//
// Daemon: the real binary serves LSP to this program, an editor that
// applies every workspace/applyEdit to the disk and then reports the file
// saved; the edit is asked for by a scripted fake model (fake.go). Chat:
// `agent-lsp chat -p … --yes` against the same fake, disk documents. The
// reference: this binary with -ref, reading the file, replacing the
// marker and writing it back (temporary file and rename).
//
// What is measured, per file size:
//
//   - CPU: the measured process's CPU time over the edit's prompt minus the
//     same prompt editing a 1 KB file (the baseline: model rounds, approval,
//     the edit's round trip), per MiB of the big file. The daemon's is read
//     from /proc (threads' schedstat) before the prompt and after the
//     settle that follows it; the chat's is its rusage at exit.
//
//   - peak: VmHWM above the RSS just before the edit (the daemon: before the
//     prompt; the chat: when its first model request arrives, the prompt
//     already read), the peak reset with clear_refs at that moment.
//
//   - after: RSS above that idle value -settle after the edit (the daemon:
//     after the prompt's answer; the chat: while it waits for the model's
//     answer to the edit's result).
//
//     go run ./bench/bigfile -bin ./agent-lsp [-sizes 1,5,20] [-settle 1s]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The edit: one character of a line that occurs once, in the middle.
const (
	markerOld = "benchMarker = 1"
	markerNew = "benchMarker = 2"
)

// smallSize is the baseline prompt's file.
const smallSize = 1 << 10

const mib = 1 << 20

func main() {
	bin := flag.String("bin", "", "the agent-lsp binary (required)")
	sizes := flag.String("sizes", "1,5,20", "file sizes in MiB, comma-separated")
	settle := flag.Duration("settle", time.Second, "wait after the edit before reading RSS")
	n := flag.Int("n", 1, "runs per size: CPU printed is the least of the runs, memory the median")
	ref := flag.String("ref", "", "internal: run the reference edit on this file and print its numbers")
	flag.Parse()
	if *ref != "" {
		if err := reference(*ref, *settle); err != nil {
			fmt.Fprintln(os.Stderr, "bench/bigfile -ref:", err)
			os.Exit(1)
		}
		return
	}
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: bigfile -bin agent-lsp [-sizes 1,5,20] [-settle 1s]")
		os.Exit(2)
	}
	var rows []row
	for _, s := range strings.Split(*sizes, ",") {
		size, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || size <= 0 {
			fmt.Fprintf(os.Stderr, "bench/bigfile: size %q: want MiB\n", s)
			os.Exit(2)
		}
		var runs []row
		for range max(*n, 1) {
			r, err := measureSize(*bin, int(size*mib), *settle)
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench/bigfile:", err)
				os.Exit(1)
			}
			runs = append(runs, r)
		}
		rows = append(rows, medianRow(runs))
	}
	report(os.Stdout, rows, *settle, max(*n, 1))
}

// sample is one process's numbers for one edit.
type sample struct {
	cpu   time.Duration // the edit's CPU (baseline subtracted for daemon and chat)
	idle  int64         // RSS before the edit
	peak  int64         // VmHWM during it
	after int64         // RSS -settle after it
	note  string        // why the numbers are partial, if they are
}

type row struct {
	size                int
	ref, daemon, chatIn sample
	opened              openSample
}

// medianRow is the runs' median of each memory number and least CPU time,
// field by field: the same work only takes more CPU for outside reasons
// (another process on a shared core), memory has no such bias.
func medianRow(runs []row) row {
	pick := func(f func(row) sample) sample {
		var s sample
		sorted := func(get func(sample) int64) []int64 {
			v := make([]int64, len(runs))
			for i, r := range runs {
				v[i] = get(f(r))
			}
			slices.Sort(v)
			return v
		}
		field := func(get func(sample) int64) int64 { v := sorted(get); return v[len(v)/2] }
		s.cpu = time.Duration(sorted(func(x sample) int64 { return int64(x.cpu) })[0])
		s.idle = field(func(x sample) int64 { return x.idle })
		s.peak = s.idle + field(func(x sample) int64 { return x.peak - x.idle })
		s.after = s.idle + field(func(x sample) int64 { return x.after - x.idle })
		s.note = f(runs[0]).note
		return s
	}
	return row{size: runs[0].size,
		ref:    pick(func(r row) sample { return r.ref }),
		daemon: pick(func(r row) sample { return r.daemon }),
		chatIn: pick(func(r row) sample { return r.chatIn }),
		opened: medianOpen(runs)}
}

// medianOpen is the runs' median of each open-file number (above idle).
func medianOpen(runs []row) openSample {
	median := func(get func(openSample) int64) int64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r.opened)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	idle := median(func(o openSample) int64 { return o.idle })
	return openSample{idle: idle,
		peak:   idle + median(func(o openSample) int64 { return o.peak - o.idle }),
		open:   idle + median(func(o openSample) int64 { return o.open - o.idle }),
		closed: idle + median(func(o openSample) int64 { return o.closed - o.idle }),
		back:   time.Duration(median(func(o openSample) int64 { return int64(o.back) }))}
}

func measureSize(bin string, size int, settle time.Duration) (row, error) {
	r := row{size: size}
	work, err := os.MkdirTemp("", "bench-bigfile-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(work)
	refFile := filepath.Join(work, "ref.txt")
	if _, err := writeFile(refFile, size); err != nil {
		return r, err
	}
	if r.ref, err = runReference(refFile, settle); err != nil {
		return r, fmt.Errorf("reference, %d MiB: %w", size/mib, err)
	}
	if r.daemon, err = runDaemon(bin, filepath.Join(work, "daemon"), size, settle); err != nil {
		return r, fmt.Errorf("daemon, %d MiB: %w", size/mib, err)
	}
	if r.chatIn, err = runChat(bin, filepath.Join(work, "chat"), size, settle); err != nil {
		return r, fmt.Errorf("chat, %d MiB: %w", size/mib, err)
	}
	if r.opened, err = runOpen(bin, filepath.Join(work, "open"), size, settle); err != nil {
		return r, fmt.Errorf("open file, %d MiB: %w", size/mib, err)
	}
	return r, nil
}

// writeFile writes about size bytes of text lines with the marker once, in
// the middle, and returns the size written.
func writeFile(path string, size int) (int, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	var b bytes.Buffer
	b.Grow(size + 128)
	marker := "const " + markerOld + " // the line the benchmark edits\n"
	placed := false
	for i := 0; b.Len() < size-len(marker); i++ {
		if !placed && b.Len() >= size/2 {
			b.WriteString(marker)
			placed = true
		}
		fmt.Fprintf(&b, "line %07d: the quick brown fox jumps over the lazy dog, a big file's text\n", i)
	}
	if !placed {
		b.WriteString(marker)
	}
	return b.Len(), os.WriteFile(path, b.Bytes(), 0o644)
}

// checkEdited reports whether path holds the edit and kept its size.
func checkEdited(path string, size int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(markerNew)) || bytes.Contains(b, []byte(markerOld)) {
		return fmt.Errorf("%s was not edited", path)
	}
	if len(b) != size {
		return fmt.Errorf("%s is %d bytes after the edit, want %d", path, len(b), size)
	}
	return nil
}

func runReference(path string, settle time.Duration) (sample, error) {
	self, err := os.Executable()
	if err != nil {
		return sample{}, err
	}
	var out bytes.Buffer
	cmd := exec.Command(self, "-ref", path, "-settle", settle.String())
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return sample{}, err
	}
	var res struct{ CPU, Idle, Peak, After int64 }
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return sample{}, fmt.Errorf("reference output %q: %w", out.String(), err)
	}
	return sample{cpu: time.Duration(res.CPU), idle: res.Idle, peak: res.Peak, after: res.After}, nil
}

// reference is the plain edit, measured by the process on itself.
func reference(path string, settle time.Duration) error {
	self := os.Getpid()
	idle, _, err := memOf(self)
	if err != nil {
		return err
	}
	_ = resetPeak(self)
	c0 := selfCPU()
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	edited := bytes.Replace(data, []byte(markerOld), []byte(markerNew), 1)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, edited, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	cpu := selfCPU() - c0
	time.Sleep(settle)
	after, peak, err := memOf(self)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]int64{"CPU": int64(cpu), "Idle": idle, "Peak": peak, "After": after})
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// isEditSuccess reports whether an edit_file result says the edit was made.
func isEditSuccess(out string) bool { return strings.Contains(out, "replaced 1 occurrence") }
