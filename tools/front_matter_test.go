package tools

import "testing"

func TestReadFrontMatter(t *testing.T) {
	type front struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	for _, c := range []struct {
		in, name, desc, body string
		fails                bool
	}{
		{in: "---\nname: pdf\ndescription: Fill PDF forms\ncolor: red\n---\n# PDF\nSteps.\n", name: "pdf", desc: "Fill PDF forms", body: "# PDF\nSteps.\n"},
		{in: "\ufeff---\r\nname: x\r\n---\r\nbody\r\n", name: "x", body: "body\n"},
		{in: "no front matter\n", body: "no front matter\n"},
		{in: "---\n---\nonly body\n", body: "only body\n"},
		{in: "---\nname: [unclosed\n---\nbody\n", fails: true},
		{in: "---\nname: x\nbody without a closing line\n", fails: true},
	} {
		var f front
		body, err := ReadFrontMatter([]byte(c.in), &f)
		if (err != nil) != c.fails || (!c.fails && (f.Name != c.name || f.Description != c.desc || body != c.body)) {
			t.Errorf("%q: %+v, body %q, err %v", c.in, f, body, err)
		}
	}
}
