package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// decodeArgs decodes a tool call's arguments object into dst, a pointer to a
// struct whose fields carry json tags. It is strict because models misspell
// and mistype arguments, and helpful because the model reads the error and
// retries:
//
//   - a field whose json tag has ",omitempty" is optional; every other tagged
//     field is required (absent or null is "missing required argument");
//   - a key that matches no field is an error naming it (and the closest
//     known name, when one is close);
//   - a value of the wrong JSON type is an error naming the argument and the
//     expected type.
//
// Empty arguments ("" or whitespace) are read as {} since some models send
// nothing for a call without arguments.
func decodeArgs(raw json.RawMessage, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("decodeArgs: destination must be a pointer to a struct, got %T", dst)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	obj, err := argsObject(raw)
	if err != nil {
		return err
	}
	fields := argFields(rv.Elem().Type())

	var unknown []string
	for key := range obj {
		if _, ok := fields[key]; !ok {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		return unknownArgsError(unknown, fields)
	}

	var missing []string
	for name, f := range fields {
		v, present := obj[name]
		if !present || isJSONNull(v) {
			if f.required {
				missing = append(missing, name)
			}
			continue
		}
		target := rv.Elem().FieldByIndex(f.index).Addr().Interface()
		if err := json.Unmarshal(v, target); err != nil {
			return argTypeError(name, f.typ, v, err)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		if len(missing) == 1 {
			return fmt.Errorf("missing required argument %q", missing[0])
		}
		return fmt.Errorf("missing required arguments %s", quoteList(missing))
	}
	return nil
}

// argsObject parses raw as a JSON object, with an error that says what it
// got instead.
func argsObject(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, fmt.Errorf("arguments must be a JSON object, got %s", typeErr.Value)
		}
		return nil, err
	}
	if obj == nil { // the literal null
		return nil, errors.New("arguments must be a JSON object, got null")
	}
	return obj, nil
}

type argField struct {
	index    []int
	typ      reflect.Type
	required bool
}

// argFields maps each json name of the struct to its field.
func argFields(t reflect.Type) map[string]argField {
	fields := map[string]argField{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("json")
		if !ok || tag == "-" || !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fields[name] = argField{
			index:    sf.Index,
			typ:      sf.Type,
			required: !strings.Contains(","+opts+",", ",omitempty,"),
		}
	}
	return fields
}

func isJSONNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}

func unknownArgsError(unknown []string, fields map[string]argField) error {
	sort.Strings(unknown)
	known := make([]string, 0, len(fields))
	for name := range fields {
		known = append(known, name)
	}
	sort.Strings(known)
	var b strings.Builder
	if len(unknown) == 1 {
		fmt.Fprintf(&b, "unknown argument %q", unknown[0])
	} else {
		fmt.Fprintf(&b, "unknown arguments %s", quoteList(unknown))
	}
	var hints []string
	for _, u := range unknown {
		if guess := closestName(u, known); guess != "" {
			hints = append(hints, fmt.Sprintf("%q for %q", guess, u))
		}
	}
	if len(hints) > 0 {
		fmt.Fprintf(&b, " (did you mean %s?)", strings.Join(hints, ", "))
	}
	fmt.Fprintf(&b, "; accepted arguments: %s", strings.Join(known, ", "))
	return errors.New(b.String())
}

func argTypeError(name string, t reflect.Type, v json.RawMessage, err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("argument %q must be %s, got %s", name, jsonTypeName(t), describeJSONValue(v))
	}
	return fmt.Errorf("argument %q: %w", name, err)
}

// jsonTypeName names the JSON type a Go field expects, in the words of JSON
// Schema.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(jsonTypeName(t.Elem()), "a "), "an ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

// describeJSONValue names a JSON value's type for an error, with the value
// itself when it is short (so "got string \"10\"" shows the quoting mistake).
func describeJSONValue(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	kind := "a value"
	switch {
	case strings.HasPrefix(s, `"`):
		kind = "a string"
	case strings.HasPrefix(s, "{"):
		kind = "an object"
	case strings.HasPrefix(s, "["):
		kind = "an array"
	case s == "true" || s == "false":
		kind = "a boolean"
	case s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')):
		kind = "a number"
	}
	if len(s) <= 40 {
		return kind + " " + s
	}
	return kind
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// closestName returns the known name nearest to u by edit distance, if it
// is near enough to be a plausible misspelling ("", otherwise).
func closestName(u string, known []string) string {
	best, bestDist := "", len(u)/2+2
	lu := strings.ToLower(u)
	for _, k := range known {
		d := editDistance(lu, strings.ToLower(k))
		if d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
