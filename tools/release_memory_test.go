package tools

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// An edit of a large file returns the memory it used to the OS when the
// call is over (a forced GC: FreeOSMemory); a small one does not.
func TestLargeEditReleasesMemory(t *testing.T) {
	fe := newFileToolEnv(t)
	small, large := "a\nmarker = 0\n", bigSource(releaseThreshold/2+1)
	fe.write(t, "small.go", small)
	fe.write(t, "large.go", large)
	reg := newTestRegistry(t, NewEditFile())
	forced := func(path string) uint32 {
		t.Helper()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		o := reg.Execute(context.Background(), fe.env, []Call{{ID: "c", Name: "edit_file", Args: editToggle(path, 0)}}, ExecOptions{})
		runtime.ReadMemStats(&after)
		if o[0].Status != StatusCompleted {
			t.Fatalf("edit %s: %+v", path, o[0])
		}
		return after.NumForcedGC - before.NumForcedGC
	}
	if n := forced("small.go"); n != 0 {
		t.Errorf("a small edit forced %d GCs", n)
	}
	if n := forced("large.go"); n != 1 {
		t.Errorf("a large edit forced %d GCs, want 1 (FreeOSMemory)", n)
	}
	if !strings.Contains(fe.read(t, "large.go"), "marker = 1") {
		t.Error("the large edit did not land")
	}
}
