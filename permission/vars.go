package permission

import (
	"path"

	"mvdan.cc/sh/v3/syntax"
)

// varReaders are commands that assign the variables named in their
// arguments at run time; those variables are unknown.
var varReaders = map[string]bool{
	"read": true, "mapfile": true, "readarray": true, "getopts": true,
	"printf": true, "unset": true,
}

// collectVars resolves the variables a script assigns, so that `x=rm; $x
// -rf /` is seen as `rm -rf /`. It is deliberately conservative: a variable
// is known only if every assignment to it gives the same literal value.
// Loop variables, values computed at run time, appends, arrays and names
// passed to read & co. are unknown. Because conditionals are not followed,
// a variable assigned two different values is unknown rather than "the last
// one", which would let `if x; then D=/; else D=build; fi` hide the /.
func collectVars(f *syntax.File, inherited map[string]string) map[string]string {
	vars := make(map[string]string, len(inherited))
	for k, v := range inherited {
		vars[k] = v
	}
	bad := map[string]bool{}
	assigned := map[string]bool{}
	e := &expander{vars: vars}
	markBad := func(name string) {
		bad[name] = true
		delete(vars, name)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil {
				return true
			}
			name := n.Name.Value
			if bad[name] {
				return true
			}
			if n.Append || n.Array != nil || n.Index != nil {
				markBad(name)
				return true
			}
			if n.Value == nil {
				if !n.Naked { // x= assigns the empty string
					setVar(vars, assigned, markBad, name, "")
				}
				return true
			}
			v := e.single(n.Value)
			if !v.known {
				markBad(name)
				return true
			}
			setVar(vars, assigned, markBad, name, v.text)
		case *syntax.WordIter:
			markBad(n.Name.Value)
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			prog := path.Base(n.Args[0].Lit())
			if !varReaders[prog] {
				return true
			}
			for i, w := range n.Args[1:] {
				if prog == "printf" && (i == 0 || n.Args[i].Lit() != "-v") {
					continue // printf assigns only the name after -v
				}
				if l := w.Lit(); l != "" {
					markBad(l)
				}
			}
		}
		return true
	})
	return vars
}

func setVar(vars map[string]string, assigned map[string]bool, markBad func(string), name, value string) {
	if old, ok := vars[name]; ok && assigned[name] && old != value {
		markBad(name)
		return
	}
	assigned[name] = true
	vars[name] = value
}
