package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// The two corpora of the benchmark (run.sh builds the first with cp -al):
//
//   - goroot: three copies of GOROOT (45k files, 800 MB, mostly Go source
//     and test data), searched for the eleven patterns below;
//   - node_modules: a small project whose .gitignore excludes a generated
//     100k-file node_modules tree: the cost is the walk's, deciding not to
//     enter it, as a JavaScript workspace has.

// goroot patterns: literals, regexes with and without a required literal,
// case-insensitive ones. No \b or \w: ripgrep's are Unicode, Go's ASCII.
var gorootPatterns = []string{
	`func main`,
	`err != nil \{`,
	`(?i)deadline`,
	`TODO`,
	`Copyright 20[0-9][0-9]`,
	`fmt\.Errorf\(`,
	`^import \(`,
	`[A-Z][a-z]+Handler`,
	`sync\.(Mutex|RWMutex)`,
	`(?i)unicode`,
	`0x[0-9a-f]{8}`,
}

// nodeModulesPatterns: one search of the project's own source.
var nodeModulesPatterns = []string{`require\(`}

const (
	nodePackages     = 1000 // node_modules/pkg-N
	nodeFilesPerPkg  = 100  // files in each package: 100k in all
	nodeProjectFiles = 20   // the project's own source files
)

// makeNodeModules writes the node_modules corpus under dir.
func makeNodeModules(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		return err
	}
	for i := range nodeProjectFiles {
		src := fmt.Sprintf("const dep%d = require('pkg-%d');\nmodule.exports = () => dep%d();\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, "src", fmt.Sprintf("file%d.js", i)), []byte(src), 0o644); err != nil {
			return err
		}
	}
	for p := range nodePackages {
		pkg := filepath.Join(dir, "node_modules", fmt.Sprintf("pkg-%d", p))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return err
		}
		for f := range nodeFilesPerPkg {
			src := fmt.Sprintf("'use strict';\nconst x = require('./f%d');\nmodule.exports = x;\n", f)
			if err := os.WriteFile(filepath.Join(pkg, fmt.Sprintf("f%d.js", f)), []byte(src), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
