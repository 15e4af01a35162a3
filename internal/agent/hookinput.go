package agent

import (
	"bytes"
	"encoding/json"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// validatedInput is a call's input as Claude Code shows it to hooks
// (tool_input): the object that was sent (the model's input, or a PreToolUse
// hook's updatedInput) as the tool validated it. A built-in tool's keys come
// in the order of its schema, a key left out is there with the default the
// schema declares for it (Edit's "replace_all": false), a value is the one
// the tool read ("5" sent for a number is 5), and keys the schema does not
// know are dropped, as Claude Code's input schemas do. A tool whose schema
// is given as JSON (MCP, settings) gets its input as sent.
func validatedInput(t tool.Tool, typed any, sent json.RawMessage) json.RawMessage {
	if _, raw := typed.(json.RawMessage); raw {
		return emptyObject(sent)
	}
	props := schemaProperties(t.InputSchema())
	var given map[string]json.RawMessage
	if json.Unmarshal(sent, &given) != nil || len(props) == 0 {
		data, err := json.Marshal(typed)
		if err != nil {
			return emptyObject(sent)
		}
		return data
	}
	var read map[string]json.RawMessage
	if data, err := json.Marshal(typed); err == nil {
		json.Unmarshal(data, &read)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, p := range props {
		v, ok := given[p.name]
		switch {
		case ok && read[p.name] != nil:
			v = read[p.name]
		case !ok && p.def != nil:
			v = p.def
		case !ok:
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// messageKeys are the tools whose input Claude Code rewrites in the
// assistant message it keeps (normalizeToolInput in 2.1.332's cli.js), with
// the keys it writes, in that order, from the validated input: Bash keeps its
// command and description first, Edit puts replace_all (default false)
// first, Write keeps file_path and content.
var messageKeys = map[string][]string{
	"Bash":  {"command", "description", "timeout", "run_in_background", "dangerouslyDisableSandbox"},
	"Edit":  {"replace_all", "file_path", "old_string", "new_string"},
	"Write": {"file_path", "content"},
}

// messageInput is a call's input as Claude Code keeps it in the assistant
// message, which PostToolBatch's tool_calls show: the model's input with its
// keys in the order sent, except for the tools of messageKeys, which get
// their validated values in Claude Code's order, and Read, whose offset sent
// as a string becomes the number read. It does not follow a PreToolUse
// hook's updatedInput, which changes the call, not the message.
func messageInput(t tool.Tool, typed any, sent json.RawMessage) json.RawMessage {
	given, ok := orderedObject(sent)
	if !ok {
		return emptyObject(sent)
	}
	validated, _ := orderedObject(validatedInput(t, typed, sent))
	value := func(key string) (json.RawMessage, bool) {
		for _, kv := range validated {
			if kv.key == key {
				return kv.val, true
			}
		}
		return nil, false
	}
	var out []keyValue
	if keys, rewritten := messageKeys[t.Name()]; rewritten {
		for _, k := range keys {
			if v, ok := value(k); ok {
				out = append(out, keyValue{k, v})
			}
		}
	} else {
		for _, kv := range given {
			if v, ok := value(kv.key); ok && t.Name() == "Read" && kv.key == "offset" && bytes.HasPrefix(kv.val, []byte(`"`)) {
				kv.val = v
			}
			out = append(out, kv)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range out {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(kv.key)
		b.Write(name)
		b.WriteByte(':')
		json.Compact(&b, kv.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// keyValue is one member of a JSON object.
type keyValue struct {
	key string
	val json.RawMessage
}

// orderedObject reads a JSON object's members in the order written; false
// when data is not an object.
func orderedObject(data json.RawMessage) ([]keyValue, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if !openObject(dec) {
		return nil, false
	}
	var out []keyValue
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var val json.RawMessage
		if dec.Decode(&val) != nil {
			return nil, false
		}
		out = append(out, keyValue{key.(string), val})
	}
	return out, true
}

// emptyObject is sent, or {} for a call sent without input.
func emptyObject(sent json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(sent)) == 0 {
		return json.RawMessage("{}")
	}
	return sent
}

// property is one property of an input schema: its name and default value.
type property struct {
	name string
	def  json.RawMessage
}

// schemaProperties lists the properties of an object schema in the order
// written, with their defaults; nil when the schema has none.
func schemaProperties(schema json.RawMessage) []property {
	dec := json.NewDecoder(bytes.NewReader(schema))
	if !openObject(dec) {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "properties" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if !openObject(dec) {
			return nil
		}
		var props []property
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return nil
			}
			var spec struct {
				Default json.RawMessage `json:"default"`
			}
			if dec.Decode(&spec) != nil {
				return nil
			}
			props = append(props, property{name: name.(string), def: spec.Default})
		}
		return props
	}
	return nil
}

// openObject reads the opening brace of an object.
func openObject(dec *json.Decoder) bool {
	tok, err := dec.Token()
	return err == nil && tok == json.Delim('{')
}
