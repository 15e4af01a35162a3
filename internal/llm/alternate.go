package llm

import "slices"

// Alternate returns msgs in the one shape every request sends a history in:
// roles alternate, messages in a row from one role joined into one, and in a
// joined user message the tool_result blocks first, in their order, then the
// other blocks in theirs. A history that already alternates comes back
// unchanged; msgs itself is never modified.
//
// A resumed session whose last call was interrupted holds the made-up results
// and then the new prompt as two user messages, and an interrupted turn the
// partial results and the next prompt; a transcript read back joins them.
// Sending every history through Alternate makes a run and a later fresh load
// of its transcript send the same bytes: chat templates of local models refuse
// roles that do not alternate, and the prompt cache pays only for a prefix
// that stays the same.
func Alternate(msgs []Message) []Message {
	if alternates(msgs) {
		return msgs
	}
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		n := len(out)
		if n == 0 || out[n-1].Role != m.Role {
			out = append(out, m)
			continue
		}
		joined := slices.Concat(out[n-1].Content, m.Content)
		if m.Role == RoleUser {
			joined = resultsFirst(joined)
		}
		out[n-1].Content = joined
	}
	return out
}

// alternates reports whether no two messages in a row have one role.
func alternates(msgs []Message) bool {
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role == msgs[i-1].Role {
			return false
		}
	}
	return true
}

// resultsFirst moves the tool_result blocks of content before the others,
// keeping the order within each kind; it modifies content.
func resultsFirst(content []ContentBlock) []ContentBlock {
	slices.SortStableFunc(content, func(a, b ContentBlock) int {
		return resultRank(a) - resultRank(b)
	})
	return content
}

func resultRank(b ContentBlock) int {
	if b.Type == BlockToolResult {
		return 0
	}
	return 1
}
