package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ordered is a JSON value that keeps its object keys in the order they were
// written, so that two hook inputs compare key order as well as values.
type ordered struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	keys []string
	vals []*ordered // an object's values, in keys' order, or an array's items
	str  string     // a string's text, a number's literal
	b    bool
}

// parseOrdered reads one JSON value.
func parseOrdered(data []byte) (*ordered, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseOrderedValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func parseOrderedValue(dec *json.Decoder) (*ordered, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		v := &ordered{kind: 'a', vals: []*ordered{}}
		if t == '{' {
			v.kind = 'o'
		}
		for dec.More() {
			if v.kind == 'o' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, k.(string))
			}
			item, err := parseOrderedValue(dec)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, item)
		}
		_, err := dec.Token()
		return v, err
	case string:
		return &ordered{kind: 's', str: t}, nil
	case json.Number:
		return &ordered{kind: 'n', str: t.String()}, nil
	case bool:
		return &ordered{kind: 'b', b: t}, nil
	}
	return &ordered{kind: 'z'}, nil
}

// get returns the value under key of an object, nil when there is none.
func (v *ordered) get(key string) *ordered {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// first is the first item of an array, nil when there is none.
func (v *ordered) first() *ordered {
	if v == nil || v.kind != 'a' || len(v.vals) == 0 {
		return nil
	}
	return v.vals[0]
}

// text is the string of a string value, "" for anything else.
func (v *ordered) text() string {
	if v == nil || v.kind != 's' {
		return ""
	}
	return v.str
}

// without returns a copy of an object without the given keys.
func (v *ordered) without(keys ...string) *ordered {
	out := &ordered{kind: 'o'}
	for i, k := range v.keys {
		drop := false
		for _, d := range keys {
			drop = drop || k == d
		}
		if !drop {
			out.keys, out.vals = append(out.keys, k), append(out.vals, v.vals[i])
		}
	}
	return out
}

// with returns a copy of an object whose key holds val.
func (v *ordered) with(key string, val *ordered) *ordered {
	out := &ordered{kind: 'o', keys: append([]string(nil), v.keys...), vals: append([]*ordered(nil), v.vals...)}
	for i, k := range out.keys {
		if k == key {
			out.vals[i] = val
			return out
		}
	}
	out.keys, out.vals = append(out.keys, key), append(out.vals, val)
	return out
}

// walk calls f on every value, depth first in key order, with the key it is
// under ("" at the top and for array items of a keyless array).
func (v *ordered) walk(key string, f func(key string, v *ordered)) {
	f(key, v)
	for i, item := range v.vals {
		k := key
		if v.kind == 'o' {
			k = v.keys[i]
		}
		item.walk(k, f)
	}
}

// render writes v as indented JSON, keys in their order.
func (v *ordered) render() string {
	var b strings.Builder
	v.renderTo(&b, "")
	return b.String()
}

func (v *ordered) renderTo(b *strings.Builder, indent string) {
	switch v.kind {
	case 'o', 'a':
		open, end := "[", "]"
		if v.kind == 'o' {
			open, end = "{", "}"
		}
		if len(v.vals) == 0 {
			b.WriteString(open + end)
			return
		}
		b.WriteString(open + "\n")
		for i, item := range v.vals {
			b.WriteString(indent + "  ")
			if v.kind == 'o' {
				b.WriteString(quoteJSON(v.keys[i]) + ": ")
			}
			item.renderTo(b, indent+"  ")
			if i < len(v.vals)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + end)
	case 's':
		b.WriteString(quoteJSON(v.str))
	case 'n':
		b.WriteString(v.str)
	case 'b':
		fmt.Fprint(b, v.b)
	default:
		b.WriteString("null")
	}
}

// quoteJSON is s as a JSON string, without the escapes of <, > and & that
// encoding/json adds, which the recorded placeholders are full of.
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
