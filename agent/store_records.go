package agent

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A session file is JSON Lines, append-only, one record per line:
//
//	{"type":"session","id":…,"title":…,"model":…,"created":…,"workspace":…}  first line
//	{"type":"message","message":{…provider.Message…}}
//	{"type":"usage","usage":{…},"cost":…,"time":…,"promptMessages":N}
//	{"type":"compaction","beforeTokens":…,"afterTokens":…,"history":[…]}
//	{"type":"mode","mode":"plan"}
//	{"type":"model","connection":{"provider":…,"model":…,"baseURL":…,"apiKeyEnv":…}}  (no connection: the configured model)
//	{"type":"plan","items":[{"content":…,"status":…}]}
//	{"type":"checkpoint","checkpoint":{"id":…,"prompt":…,"createdAt":…,"historyLen":N,"files":[…]}}
//	{"type":"rewind","checkpointId":…}
//	{"type":"subagent","toolCallId":…,"history":[…]}  a child's conversation, with its task call's result
//	{"type":"commit"}
//
// Records are written ahead, in batches each ended by a commit record and
// fsync'd: the prompt's user message as the prompt starts, the model's turn
// (with its tool calls) before they run, each tool result as its call
// finishes (in any order), and what a round or a command queued at its
// end. A loader applies only committed batches, so a batch cut short by a
// crash is dropped whole; a tool call left without a result (a crash while
// it ran) is answered as interrupted (repair.go), so the history is valid.
// A compaction record holds the whole new history, which replaces the one
// built so far. A checkpoint record carries the files changed since the
// last one of that checkpoint (merged by path), its texts as references
// into <id>.content/ (checkpoint_content.go; older files have them inline);
// a rewind record drops that checkpoint and the later ones. Of the
// provider's configuration only a model record's plain settings are
// written (the key variable's name): the API key is never written.

const (
	recSession    = "session"
	recMessage    = "message"
	recUsage      = "usage"
	recCompaction = "compaction"
	recCommit     = "commit"
	recMode       = "mode"
	recModel      = "model"
	recPlan       = "plan"
	recCheckpoint = "checkpoint"
	recRewind     = "rewind"
	recSubagent   = "subagent" // a child's history (subagent_store.go)
)

// record is one line of a session file; Type says which fields are set.
type record struct {
	Type string `json:"type"`
	// session
	ID        string     `json:"id,omitempty"`
	Title     string     `json:"title,omitempty"`
	Model     string     `json:"model,omitempty"`
	Created   *time.Time `json:"created,omitempty"`
	Workspace string     `json:"workspace,omitempty"` // the first root; none in older sessions
	// message
	Message *provider.Message `json:"message,omitempty"`
	// usage
	Usage          *provider.Usage `json:"usage,omitempty"`
	Cost           float64         `json:"cost,omitempty"`
	Unpriced       bool            `json:"unpriced,omitempty"` // the model had no price: the cost is unknown
	Time           *time.Time      `json:"time,omitempty"`
	PromptMessages int             `json:"promptMessages,omitempty"` // messages of the request it answers
	ToolTokens     int             `json:"toolTokens,omitempty"`     // the estimate of that request's tool list
	// compaction
	BeforeTokens int                `json:"beforeTokens,omitempty"`
	AfterTokens  int                `json:"afterTokens,omitempty"`
	History      []provider.Message `json:"history,omitempty"`
	// mode
	Mode Mode `json:"mode,omitempty"`
	// model: the connection switched to (nil: the configured model)
	Connection *ModelRecord `json:"connection,omitempty"`
	// plan: the whole list (none: the plan was cleared)
	Items []tools.TodoItem `json:"items,omitempty"`
	// checkpoint
	Checkpoint *checkpointRecord `json:"checkpoint,omitempty"`
	// rewind
	CheckpointID string `json:"checkpointId,omitempty"`
	// subagent: the task call whose child's History it is
	ToolCallID string `json:"toolCallId,omitempty"`
}

// appendBatch writes records and a commit record to the session file,
// then fsyncs it; the first batch also makes the directory entry durable.
// Records are encoded straight to the file, each redacted as a whole: a
// batch holding a long answer is never copied into a buffer first. A
// batch that fails part way is cut off again, so the next one does not
// commit its head.
func (st *Store) appendBatch(id string, recs []record) error {
	path := st.path(id)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("session %s: %w", id, err)
	}
	start, err := f.Seek(0, io.SeekEnd)
	if err == nil {
		if err = encodeBatch(f, recs); err != nil {
			_ = f.Truncate(start) // best effort: a loader drops an uncommitted tail anyway
		} else {
			err = f.Sync()
		}
	}
	if err := cmp.Or(err, f.Close()); err != nil { // the first says why; a failed close follows from it
		return fmt.Errorf("session %s: %w", id, err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if d, err := os.Open(st.dir); err == nil {
			_ = d.Sync() // best effort: not every file system syncs directories
			_ = d.Close()
		}
	}
	return nil
}

// encodeBatch writes recs and a commit record to w, one line each.
func encodeBatch(w io.Writer, recs []record) error {
	bw := bufio.NewWriterSize(w, 64<<10) // a large piece bypasses it: written as it is
	out := redactingWriter{bw}
	for _, r := range append(recs, record{Type: recCommit}) {
		var long provider.LongTexts
		if err := long.Encode(out, holdRecordTexts(r, &long)); err != nil { // ends each record with "\n"
			return fmt.Errorf("writing a %s record: %w", r.Type, err)
		}
	}
	return bw.Flush()
}

// holdRecordTexts is r with its messages' long texts held apart, to be
// written a chunk at a time; they are redacted here, whole, since no
// write of them is.
func holdRecordTexts(r record, long *provider.LongTexts) record {
	if r.Message != nil {
		m := holdMessageTexts(*r.Message, long)
		r.Message = &m
	}
	if len(r.History) > 0 {
		h := make([]provider.Message, len(r.History))
		for i, m := range r.History {
			h[i] = holdMessageTexts(m, long)
		}
		r.History = h
	}
	return r
}

func holdMessageTexts(m provider.Message, long *provider.LongTexts) provider.Message {
	hold := func(s string) string { return long.Hold(tools.RedactSecrets(s)) }
	m.Text, m.Reasoning = hold(m.Text), hold(m.Reasoning)
	if len(m.ToolCalls) > 0 {
		calls := make([]provider.ToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			c.Arguments = hold(c.Arguments)
			calls[i] = c
		}
		m.ToolCalls = calls
	}
	return m
}

// redactingWriter hides secrets in what it writes: no hidden secret is
// ever stored. Each write is a record, or a piece of one between its held
// texts, never split inside a short string.
type redactingWriter struct{ w io.Writer }

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := r.w.Write(tools.RedactSecretBytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
