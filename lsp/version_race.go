package lsp

// versionRace is an applyEdit the editor refused while the buffer moved
// on from the version the edit was computed against: worth one more try.
type versionRace struct {
	sent, now int32
	refusal   error // the editor's refusal, reported if the retry races too
}

func (r *versionRace) Error() string { return r.refusal.Error() }
