// Package completion owns inline (ghost-text) completion from
// fill-in-the-middle models, with nothing of LSP in it: given a document's
// text, the cursor and a few other open buffers it builds the FIM request
// (token-budgeted prefix and suffix windows cut at line boundaries),
// streams the model's answer, stops at a sensible boundary, trims what the
// text after the cursor already holds and says which part of the cursor's
// line the suggestion replaces. It also owns the latency policy: a new
// request for a document cancels the previous one at once, automatic
// requests are debounced, and a small cache re-serves the rest of a
// suggestion while the user types it. Positions are byte offsets; the
// front end converts them.
package completion
