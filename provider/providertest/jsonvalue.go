package providertest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The validators read requests through these few helpers instead of through
// structs: encoding/json matches struct fields case-insensitively and folds
// null, absent and wrong-typed values together, which would hide exactly the
// mistakes the fake exists to catch.

type jsonKind uint8

const (
	kindAbsent jsonKind = iota
	kindNull
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
	kindInvalid
)

func (k jsonKind) String() string {
	return [...]string{"absent", "null", "boolean", "number", "string", "array", "object", "invalid"}[k]
}

func kindOf(raw json.RawMessage) jsonKind {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return kindAbsent
	}
	switch c := raw[0]; {
	case c == 'n':
		return kindNull
	case c == 't' || c == 'f':
		return kindBool
	case c == '"':
		return kindString
	case c == '[':
		return kindArray
	case c == '{':
		return kindObject
	case c == '-' || (c >= '0' && c <= '9'):
		return kindNumber
	}
	return kindInvalid
}

// object is a decoded JSON object whose values are still raw.
type object map[string]json.RawMessage

func decodeObject(raw json.RawMessage) (object, bool) {
	if kindOf(raw) != kindObject {
		return nil, false
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, false
	}
	return o, true
}

func decodeArray(raw json.RawMessage) ([]json.RawMessage, bool) {
	if kindOf(raw) != kindArray {
		return nil, false
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, false
	}
	return a, true
}

func (o object) kind(key string) jsonKind { return kindOf(o[key]) }

// str returns the value of key when it is a JSON string.
func (o object) str(key string) (string, bool) {
	if o.kind(key) != kindString {
		return "", false
	}
	var s string
	if err := json.Unmarshal(o[key], &s); err != nil {
		return "", false
	}
	return s, true
}

// positiveInt reports whether key holds an integer ≥ 1 (1.0 and 1e3 are not
// integers here: the fake is stricter than a lenient parser).
func (o object) positiveInt(key string) (int64, bool) {
	if o.kind(key) != kindNumber {
		return 0, false
	}
	n, err := json.Number(strings.TrimSpace(string(o[key]))).Int64()
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

// isTrue reports whether key holds the JSON literal true.
func (o object) isTrue(key string) bool {
	return strings.TrimSpace(string(o[key])) == "true"
}

// validToolName reports whether name matches ^[a-zA-Z0-9_-]{1,max}$, the rule
// both services apply to tool names (and Messages to tool_use ids, unbounded).
func validToolName(name string, max int) bool {
	if name == "" || (max > 0 && len(name) > max) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// marshal encodes v the way the services do: no HTML escaping, no newline.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own frame structs reach here; they always encode.
		panic("providertest: encoding a frame: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
