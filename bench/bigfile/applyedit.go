package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"
)

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"` // UTF-16 code units
}

type textEdit struct {
	Range struct {
		Start position `json:"start"`
		End   position `json:"end"`
	} `json:"range"`
	NewText string `json:"newText"`
}

// applyToDisk applies a workspace/applyEdit's text edits to the files on
// disk, each written to a temporary file and renamed over the old one, and
// returns the URIs it wrote.
func applyToDisk(raw json.RawMessage) ([]string, error) {
	var p struct {
		Edit struct {
			Changes         map[string][]textEdit `json:"changes"`
			DocumentChanges []struct {
				Kind         string `json:"kind"`
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				Edits []textEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("applyEdit params: %w", err)
	}
	byURI := p.Edit.Changes
	if byURI == nil {
		byURI = map[string][]textEdit{}
	}
	for _, dc := range p.Edit.DocumentChanges {
		if dc.Kind != "" {
			return nil, fmt.Errorf("applyEdit: resource operation %q is not expected here", dc.Kind)
		}
		byURI[dc.TextDocument.URI] = append(byURI[dc.TextDocument.URI], dc.Edits...)
	}
	var done []string
	for uri, edits := range byURI {
		if err := applyFile(uri, edits); err != nil {
			return done, err
		}
		done = append(done, uri)
	}
	return done, nil
}

func applyFile(uri string, edits []textEdit) error {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return fmt.Errorf("applyEdit: not a file URI: %q", uri)
	}
	path := u.Path
	text, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("applyEdit: %w", err)
	}
	starts := []int{0}
	for i, b := range text {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	type span struct {
		from, to int
		text     string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		from, err := offset(text, starts, e.Range.Start)
		if err != nil {
			return err
		}
		to, err := offset(text, starts, e.Range.End)
		if err != nil {
			return err
		}
		spans = append(spans, span{from, to, e.NewText})
	}
	// LSP edits do not overlap; applied from the end, offsets stay valid.
	slices.SortFunc(spans, func(a, b span) int { return b.from - a.from })
	out := text
	for _, s := range spans {
		out = append(out[:s.from:s.from], append([]byte(s.text), out[s.to:]...)...)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bench-edit-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// offset turns a position into a byte offset of text; a character past the
// end of its line is the line's end, as editors clamp it.
func offset(text []byte, starts []int, p position) (int, error) {
	if p.Line >= len(starts) {
		if p.Line == len(starts) && p.Character == 0 {
			return len(text), nil
		}
		return 0, fmt.Errorf("applyEdit: line %d past the end (%d lines)", p.Line, len(starts))
	}
	i := starts[p.Line]
	for units := 0; units < p.Character && i < len(text) && text[i] != '\n'; {
		r, size := utf8.DecodeRune(text[i:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i += size
	}
	return i, nil
}
