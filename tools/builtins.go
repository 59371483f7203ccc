package tools

// RegisterBuiltins adds the built-in tools in a fixed order (the tool
// list is part of the prompt, and a stable order keeps the prompt cache):
// read_file, glob, grep, write_file, edit_file, run_bash, todo_write.
func RegisterBuiltins(r *Registry) error {
	for _, t := range []Tool{NewReadFile(), NewGlob(), NewGrep(), NewWriteFile(), NewEditFile(), NewRunBash(), NewTodoWrite()} {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	return nil
}
