//go:build !unix

package tools

import (
	"io"
	"os"
)

// readWhole reads the file at path into buf (grown as needed) and returns
// the filled slice; files over maxSearchFileBytes are refused.
func readWhole(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= maxSearchFileBytes {
				return buf, errFileTooLarge
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
