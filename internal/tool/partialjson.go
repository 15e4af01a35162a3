package tool

import "encoding/json"

// CompletePartialJSON closes what a prefix of a JSON object left open (a
// string, arrays, objects) so that it parses, for showing a call's input while
// it streams. A prefix cut after a key or a colon loses that last key; input
// that is already valid is returned as it is.
func CompletePartialJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || json.Valid(raw) {
		return raw
	}
	var closers []byte
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			closers = append(closers, '}')
		case c == '[':
			closers = append(closers, ']')
		case (c == '}' || c == ']') && len(closers) > 0:
			closers = closers[:len(closers)-1]
		}
	}
	out := append([]byte{}, raw...)
	if escaped {
		out = out[:len(out)-1]
	}
	if inString {
		out = append(out, '"')
	}
	if candidate := append(append([]byte{}, out...), reverse(closers)...); json.Valid(candidate) {
		return candidate
	}
	return trimToValid(out, closers)
}

// trimToValid drops trailing bytes (a dangling key, colon or comma) until the
// closed text parses, or gives up with an empty object.
func trimToValid(out, closers []byte) json.RawMessage {
	tail := reverse(closers)
	for cut := len(out); cut > 0; cut-- {
		candidate := append(append([]byte{}, out[:cut]...), tail...)
		if json.Valid(candidate) {
			return candidate
		}
	}
	return json.RawMessage("{}")
}

func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}
