package providertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// fimCheck reads one FIM request body the strict way and words each refusal
// as the dialect's server does: Mistral answers 422 with a pydantic detail
// list, OpenAI names the unrecognized argument, DeepSeek says serde's words,
// llama.cpp and Ollama have their own error bodies (fim_errors.go).
type fimCheck struct {
	dialect string
	o       object
}

// refuse is a 400 (Mistral: 422) about one field.
func (c fimCheck) refuse(field, kind, format string, args ...any) *rejection {
	msg := fmt.Sprintf(format, args...)
	if c.dialect == FIMMistral {
		return &rejection{status: http.StatusUnprocessableEntity, message: field + ": " + msg,
			body: mistralDetail(kind, field, msg, c.o[field])}
	}
	return badRequest("%s: %s", field, msg)
}

func (c fimCheck) unknown(field string) *rejection {
	switch c.dialect {
	case FIMOpenAI:
		return badRequest("Unrecognized request argument supplied: %s", field)
	case FIMDeepSeek:
		return badRequest("Failed to deserialize the JSON body into the target type: unknown field `%s`", field)
	case FIMMistral:
		return c.refuse(field, "extra_forbidden", "Extra inputs are not permitted")
	}
	return badRequest("%s: unknown field (the fake refuses what the client should not send)", field)
}

// fieldRule checks one present field; nil means "any JSON value".
type fieldRule func(c fimCheck, field string) *rejection

// allow checks that every field of the body is one the dialect knows and
// passes its rule.
func (c fimCheck) allow(rules map[string]fieldRule) *rejection {
	for _, field := range sortedKeys(c.o) {
		rule, ok := rules[field]
		if !ok {
			return c.unknown(field)
		}
		if rule != nil {
			if rej := rule(c, field); rej != nil {
				return rej
			}
		}
	}
	return nil
}

func (c fimCheck) required(field, want string) *rejection {
	if c.o.kind(field) == kindAbsent {
		return c.refuse(field, "missing", "missing field (%s)", want)
	}
	return nil
}

func ofKind(want jsonKind, nullable bool) fieldRule {
	return func(c fimCheck, field string) *rejection {
		k := c.o.kind(field)
		if k == want || (nullable && k == kindNull) {
			return nil
		}
		return c.refuse(field, want.String()+"_type", "expected %s, got %s", want, k)
	}
}

var (
	isString   = ofKind(kindString, false)
	isBool     = ofKind(kindBool, false)
	isNumber   = ofKind(kindNumber, false)
	isObject   = ofKind(kindObject, false)
	isArray    = ofKind(kindArray, false)
	nullString = ofKind(kindString, true)
)

// nonEmptyString is a required-looking string such as "model".
func nonEmptyString(c fimCheck, field string) *rejection {
	if s, ok := c.o.str(field); !ok || s == "" {
		return c.refuse(field, "string_type", "expected a non-empty string")
	}
	return nil
}

// integer accepts integers in [lo, hi] (hi 0: unbounded); 1.0 is not one.
func integer(lo, hi int64) fieldRule {
	return func(c fimCheck, field string) *rejection {
		n, err := strconv.ParseInt(strings.TrimSpace(string(c.o[field])), 10, 64)
		if c.o.kind(field) != kindNumber || err != nil {
			return c.refuse(field, "int_type", "expected an integer")
		}
		if n < lo || (hi != 0 && n > hi) {
			return c.refuse(field, "int_range", "%d is out of range [%d, %s]", n, lo, bound(hi))
		}
		return nil
	}
}

func bound(hi int64) string {
	if hi == 0 {
		return "∞"
	}
	return strconv.FormatInt(hi, 10)
}

// numberIn accepts a number in [lo, hi].
func numberIn(lo, hi float64) fieldRule {
	return func(c fimCheck, field string) *rejection {
		var f float64
		if c.o.kind(field) != kindNumber || json.Unmarshal(c.o[field], &f) != nil {
			return c.refuse(field, "float_type", "expected a number")
		}
		if f < lo || f > hi {
			return c.refuse(field, "float_range", "%g is out of range [%g, %g]", f, lo, hi)
		}
		return nil
	}
}

// stopRule accepts a string or an array of at most max strings (0: any
// number); arrayOnly refuses the single string (llama.cpp, Ollama).
func stopRule(max int, arrayOnly bool) fieldRule {
	return func(c fimCheck, field string) *rejection {
		k := c.o.kind(field)
		if !arrayOnly && (k == kindNull || k == kindString) {
			return nil
		}
		items, ok := decodeArray(c.o[field])
		for _, it := range items {
			ok = ok && kindOf(it) == kindString
		}
		if !ok {
			if arrayOnly {
				return c.refuse(field, "list_type", "expected an array of strings")
			}
			return c.refuse(field, "list_type", "expected a string or an array of strings")
		}
		if max > 0 && len(items) > max {
			return c.refuse(field, "too_long", "%d stop sequences; at most %d are allowed", len(items), max)
		}
		return nil
	}
}

// stringList decodes a JSON string or array of strings (validated before).
func stringList(raw json.RawMessage) ([]string, bool) {
	switch kindOf(raw) {
	case kindString:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		return []string{s}, true
	case kindArray:
		var out []string
		if json.Unmarshal(raw, &out) != nil {
			return nil, false
		}
		return out, true
	}
	return nil, false
}

// mustStream refuses a request that does not stream: the fake answers
// streams only (a missing field is the server default, given as dflt).
func (c fimCheck) mustStream(dflt bool) *rejection {
	if c.o.kind("stream") == kindAbsent && dflt {
		return nil
	}
	if !c.o.isTrue("stream") {
		return c.refuse("stream", "literal_error", "providertest serves streaming requests only; `stream` must be true")
	}
	return nil
}

// sortedKeys orders the fields so that the first offending one reported
// does not depend on map order.
func sortedKeys(o object) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
