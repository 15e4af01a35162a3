package notebookedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// member is one key of a JSON object and its value as the file wrote it.
type member struct {
	key   string
	value json.RawMessage
}

// object is a JSON object that keeps its keys in file order and its values
// byte for byte, so writing it back changes only what was edited.
type object []member

// parseObject reads a JSON object, keeping key order and raw values.
func parseObject(raw []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("it is not a JSON object")
	}
	var o object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		o = append(o, member{key: key, value: value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("there is more after the JSON object")
	}
	return o, nil
}

func (o object) get(key string) json.RawMessage {
	for _, m := range o {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// set replaces the value of key where it stands, or appends the key.
func (o *object) set(key string, value json.RawMessage) {
	for i, m := range *o {
		if m.key == key {
			(*o)[i].value = value
			return
		}
	}
	*o = append(*o, member{key: key, value: value})
}

func (o *object) remove(key string) {
	for i, m := range *o {
		if m.key == key {
			*o = append((*o)[:i], (*o)[i+1:]...)
			return
		}
	}
}

// layout is how a JSON file is laid out, so new parts can be written the same
// way: pretty-printed with an indent unit (Jupyter uses one space), or compact.
type layout struct {
	pretty          bool
	indent          string
	eol             string
	trailingNewline bool
}

// detectLayout reads the layout from the whitespace before the first key.
func detectLayout(data []byte) layout {
	l := layout{eol: "\n", trailingNewline: bytes.HasSuffix(data, []byte("\n"))}
	open := bytes.IndexByte(data, '{')
	if open < 0 {
		return l
	}
	rest := data[open+1:]
	space := rest[:len(rest)-len(bytes.TrimLeft(rest, " \t\r\n"))]
	if i := bytes.LastIndexByte(space, '\n'); i >= 0 {
		l.pretty, l.indent = true, string(space[i+1:])
		if bytes.HasSuffix(space[:i], []byte("\r")) {
			l.eol = "\r\n"
		}
	}
	return l
}

func (l layout) newline(b *bytes.Buffer, depth int) {
	if !l.pretty {
		return
	}
	b.WriteString(l.eol)
	b.WriteString(strings.Repeat(l.indent, depth))
}

// encode writes v as a value whose closing bracket sits at depth.
func (l layout) encode(v any, depth int) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if l.pretty {
		enc.SetIndent(strings.Repeat(l.indent, depth), l.indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if l.eol != "\n" {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte(l.eol))
	}
	return out, nil
}

// object writes o with its closing brace at depth and its members one deeper.
func (l layout) object(o object, depth int) json.RawMessage {
	if len(o) == 0 {
		return json.RawMessage("{}")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		l.newline(&b, depth+1)
		key, _ := l.encode(m.key, 0)
		b.Write(key)
		b.WriteByte(':')
		if l.pretty {
			b.WriteByte(' ')
		}
		b.Write(m.value)
	}
	l.newline(&b, depth)
	b.WriteByte('}')
	return b.Bytes()
}

// array writes items with its closing bracket at depth and the items one deeper.
func (l layout) array(items []json.RawMessage, depth int) json.RawMessage {
	if len(items) == 0 {
		return json.RawMessage("[]")
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, item := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		l.newline(&b, depth+1)
		b.Write(item)
	}
	l.newline(&b, depth)
	b.WriteByte(']')
	return b.Bytes()
}

// describeJSONError names where a JSON syntax error is, when it can.
func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Sprintf("%v (at byte %d)", syntax, syntax.Offset)
	}
	return err.Error()
}
