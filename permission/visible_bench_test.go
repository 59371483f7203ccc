package permission

import (
	"strings"
	"testing"
)

// The chat renders every streamed delta and tool output: plain text must
// cost a scan, hostile text one pass.
func BenchmarkVisibleOutput(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"plain 1MiB", strings.Repeat("func main() { fmt.Println(\"héllo\") }\n", 1<<20/39)},
		{"escapes 1MiB", strings.Repeat("\x1b[31mred\x1b[0m \u202Ex\u200By\r\n", 1<<20/24)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				_ = VisibleOutput(bc.text)
			}
		})
	}
}
