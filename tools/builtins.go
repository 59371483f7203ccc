package tools

// RegisterBuiltins adds the built-in tools in a fixed order (the tool
// list is part of the prompt, and a stable order keeps the prompt cache):
// read_file, glob, grep, write_file, edit_file, run_bash, todo_write,
// web_fetch, skill, with their default settings.
func RegisterBuiltins(r *Registry) error { return RegisterBuiltinsWith(r, WebFetchOptions{}) }

// RegisterBuiltinsWith adds the built-in tools, web_fetch with the user's
// settings web.
func RegisterBuiltinsWith(r *Registry, web WebFetchOptions) error {
	for _, t := range []Tool{NewReadFile(), NewGlob(), NewGrep(), NewWriteFile(), NewEditFile(), NewRunBash(), NewTodoWrite(), NewWebFetch(web), NewSkill()} {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	return nil
}
