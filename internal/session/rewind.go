package session

import (
	"encoding/json"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// SubtypeConversationRewound marks a system line that takes the
// conversation back to before a prompt (/rewind): Load drops that prompt's
// lines and all after them from the history. The line's parent is the
// prompt's, so the chain of parentUuid links branches there, as Claude
// Code's does after a rewind.
const SubtypeConversationRewound = "conversation_rewound"

// rewoundMetadata names the prompt a conversation_rewound line goes back before.
type rewoundMetadata struct {
	PromptID string `json:"promptId"`
}

// promptStart is where a prompt starts in a transcript being loaded.
type promptStart struct {
	id, text string
	// at counts the history's messages (one a line) before the prompt.
	at int
}

// markPrompt notes the prompt a user line belongs to: its start, at the
// first of its lines, and its text as typed.
func (l *Loaded) markPrompt(line Line, history []llm.Message) {
	if line.PromptID == "" || line.Message == nil {
		return
	}
	text := line.Message.llmMessage().PromptText()
	if n := len(l.prompts); n > 0 && l.prompts[n-1].id == line.PromptID {
		l.prompts[n-1].text += text
		return
	}
	l.prompts = append(l.prompts, promptStart{id: line.PromptID, text: text, at: len(history)})
}

// rewind applies a conversation_rewound line: the history goes back to
// before the prompt it names; a prompt the loaded lines do not hold (before
// a compaction) leaves it as it is.
func (l *Loaded) rewind(line Line, history []llm.Message) []llm.Message {
	var meta rewoundMetadata
	if json.Unmarshal(line.Metadata, &meta) != nil {
		return history
	}
	for i, p := range l.prompts {
		if p.id == meta.PromptID {
			l.prompts = l.prompts[:i]
			return history[:p.at]
		}
	}
	return history
}

// promptMarks returns the prompts of the loaded conversation for /rewind,
// their positions counted in the repaired history, which joins messages in
// a row from one role.
func (l *Loaded) promptMarks(history []llm.Message) []agent.PromptMark {
	marks := make([]agent.PromptMark, len(l.prompts))
	for i, p := range l.prompts {
		before, _ := repair(history[:p.at])
		marks[i] = agent.PromptMark{ID: p.id, Text: p.text, At: len(before)}
	}
	return marks
}

// rewound records that the conversation went back to before the prompt id:
// a conversation_rewound line whose parent is the prompt's, after which the
// next lines follow.
func (t *Transcript) rewound(id string) {
	line, err := t.systemLine(SubtypeConversationRewound, "Conversation rewound", rewoundMetadata{PromptID: id})
	if err != nil {
		return
	}
	t.mu.Lock()
	if parent, ok := t.promptParents[id]; ok {
		t.last = parent
	}
	t.mu.Unlock()
	t.write(line)
}

// promptParents returns, by prompt id, the parent of each prompt's first
// line, for the transcript that goes on from the loaded one.
func (l *Loaded) promptParents() map[string]string {
	parents := map[string]string{}
	for _, line := range l.Lines {
		if _, seen := parents[line.PromptID]; line.PromptID == "" || seen {
			continue
		}
		parents[line.PromptID] = ""
		if line.ParentUUID != nil {
			parents[line.PromptID] = *line.ParentUUID
		}
	}
	return parents
}
