package tools

import (
	"runtime/debug"

	"github.com/agent-lsp/agent-lsp/permission"
)

// releaseThreshold is how much file text (an edit's text before and after,
// together) a call must have handled for its end to return memory to the
// operating system: from a 4 MB file on.
const releaseThreshold = 8 << 20

// editBytes is how much file text an approved action carries.
func editBytes(a permission.Action) int {
	if a.Edit == nil {
		return 0
	}
	return len(a.Edit.Before) + len(a.Edit.After)
}

// releaseMemory returns the freed heap to the operating system after a
// call that handled n bytes of file text, when n is large. Go keeps freed
// heap mapped until its background scavenger gives it back, slowly: after
// a one-character edit of a 20 MB file the process stayed 35–40 MB above
// idle for seconds with nothing live, and a daemon that edited a large
// file once would carry that. It runs when the call is over, so the texts
// it read and wrote are garbage by then; FreeOSMemory collects first, a
// few milliseconds beside the edit of such a file.
func releaseMemory(n int) {
	if n >= releaseThreshold {
		debug.FreeOSMemory()
	}
}
