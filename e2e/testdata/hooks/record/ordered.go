package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// value is a JSON value that keeps the order of its object keys, so a
// recorded object is written back with its keys in the order Claude Code
// sent them.
type value struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	members []member
	items   []*value
	str     string // a string's text, a number's literal
	b       bool
}

type member struct {
	key string
	val *value
}

// parse reads one JSON value from data.
func parse(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (*value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &value{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				val, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				v.members = append(v.members, member{kt.(string), val})
			}
			_, err := dec.Token()
			return v, err
		case '[':
			v := &value{kind: 'a', items: []*value{}}
			for dec.More() {
				item, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			_, err := dec.Token()
			return v, err
		}
	case string:
		return &value{kind: 's', str: t}, nil
	case json.Number:
		return &value{kind: 'n', str: t.String()}, nil
	case bool:
		return &value{kind: 'b', b: t}, nil
	case nil:
		return &value{kind: 'z'}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// get returns the member key of an object, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// text returns a string value's text, or "".
func (v *value) text() string {
	if v == nil || v.kind != 's' {
		return ""
	}
	return v.str
}

// quote writes s as a JSON string without escaping <, > and &, as
// JSON.stringify does.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// compact writes v on one line.
func (v *value) compact() string {
	var b strings.Builder
	v.write(&b, "", "")
	return b.String()
}

// indent writes v over several lines, two spaces a level.
func (v *value) indent() string {
	var b strings.Builder
	v.write(&b, "\n", "  ")
	return b.String()
}

func (v *value) write(b *strings.Builder, nl, step string) {
	sep := ":"
	if nl != "" {
		sep = ": "
	}
	switch v.kind {
	case 'o':
		if len(v.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		inner := nl + step
		for i, m := range v.members {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(inner)
			b.WriteString(quote(m.key))
			b.WriteString(sep)
			m.val.write(b, inner, step)
		}
		b.WriteString(nl)
		b.WriteString("}")
	case 'a':
		if len(v.items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		inner := nl + step
		for i, item := range v.items {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(inner)
			item.write(b, inner, step)
		}
		b.WriteString(nl)
		b.WriteString("]")
	case 's':
		b.WriteString(quote(v.str))
	case 'n':
		b.WriteString(v.str)
	case 'b':
		if v.b {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case 'z':
		b.WriteString("null")
	}
}
