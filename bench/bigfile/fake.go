package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// fakeModel is a scripted Chat Completions server: a request whose last
// message is the user's gets an edit_file call of the current target, one
// whose last message is a tool result gets "Done." (and the tool result is
// checked). onRequest, when set, runs before a request is answered, with the
// request's index within the prompt (0: the call, 1: after the edit): the
// benchmark reads the measured process there.
type fakeModel struct {
	mu        sync.Mutex
	target    string // workspace-relative path the next prompt edits
	onRequest func(i int)
	toolErr   string // a tool result that was not a success
}

// expect sets the file the next prompt edits and the hook it runs.
func (f *fakeModel) expect(target string, onRequest func(i int)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.target, f.onRequest = target, onRequest
}

// editArgs is the one-character edit the model asks for.
func editArgs(path string) string {
	b, _ := json.Marshal(map[string]string{"path": path, "old_string": markerOld, "new_string": markerNew})
	return string(b)
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	target, hook := f.target, f.onRequest
	f.mu.Unlock()
	last := req.Messages[len(req.Messages)-1]
	afterTool := last.Role == "tool"
	if hook != nil {
		i := 0
		if afterTool {
			i = 1
		}
		hook(i)
	}
	var delta string
	finish := "stop"
	if afterTool {
		var content string
		_ = json.Unmarshal(last.Content, &content)
		if !isEditSuccess(content) {
			f.mu.Lock()
			if f.toolErr == "" {
				f.toolErr = content
			}
			f.mu.Unlock()
		}
		delta = `{"role":"assistant","content":"Done."}`
	} else {
		args, _ := json.Marshal(editArgs(target))
		delta = fmt.Sprintf(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_edit","type":"function","function":{"name":"edit_file","arguments":%s}}]}`, args)
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "text/event-stream")
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "data: {\"id\":\"b\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"deepseek-flash\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":null}]}\n\n", delta)
	fmt.Fprintf(bw, "data: {\"id\":\"b\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"deepseek-flash\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":%q}],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":20,\"total_tokens\":%d}}\n\n", finish, len(body)/4, len(body)/4+20)
	fmt.Fprint(bw, "data: [DONE]\n\n")
	_ = bw.Flush()
}

// lastToolError is the first tool result that was not a success ("" if none).
func (f *fakeModel) lastToolError() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.toolErr
}
