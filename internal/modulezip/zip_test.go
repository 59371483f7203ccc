package modulezip

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/zip"
)

// TestModuleZipsForTheProxy runs the module proxy's own rules
// (golang.org/x/mod/zip, which the go command uses) over the files git
// tracks, the ones a tagged version's zip holds.
func TestModuleZipsForTheProxy(t *testing.T) {
	root := moduleRoot(t)
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	var files []zip.File
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		files = append(files, trackedFile{root: root, name: name})
	}
	cf, err := zip.CheckFiles(files)
	if err != nil {
		t.Fatalf("checking the module's files: %v", err)
	}
	for _, f := range cf.Invalid {
		t.Errorf("the module proxy refuses %s: %v", f.Path, f.Err)
	}
	if err := cf.Err(); err != nil && len(cf.Invalid) == 0 {
		t.Errorf("the module zip is refused: %v", err)
	}
}

func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}
