package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// normalizer replaces the values that change from one recording to the next
// by placeholders, keeping every value's type and every object's key order:
//
//   - paths: the scratch project as <cwd>, its HOME as <home>, the scratch
//     folder holding both as <tmp>, and the project's folder name under
//     ~/.claude/projects (its path with every character other than a letter
//     or digit turned into "-") as <cwd_slug>; the model server's URL as
//     <base_url> (its host:port alone as <base_host>);
//   - UUIDs: a session id as <session_id> (a second one <session_id_2>…);
//     another UUID as <KEY> after the key it first appears under
//     (<prompt_id>, <uuid>, <hook_id>…, numbered from the second distinct
//     value: <prompt_id_2>); the same UUID gets the same placeholder
//     everywhere in one file;
//   - an agent id (17 hex digits after "a") as <agent_id>, numbered likewise;
//   - ISO timestamps as <timestamp>;
//   - the numbers under keys that measure time (duration_ms…) as 0, and
//     "duration_ms: N" in a sub-agent's report as "duration_ms: 0";
//   - this program's own path (in hook commands) as <record>, Claude Code's
//     messaging socket /tmp/cc-socks/PID.sock as /tmp/cc-socks/<pid>.sock.
type normalizer struct {
	paths       *strings.Replacer
	placeholder map[string]string // volatile value -> placeholder
	count       map[string]int    // placeholder base -> distinct values seen
}

var (
	uuidRe    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	agentIDRe = regexp.MustCompile(`\ba[0-9a-f]{16}\b`)
	isoRe     = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	// socketRe is Claude Code's messaging socket, named after its pid.
	socketRe = regexp.MustCompile(`/tmp/cc-socks/\d+\.sock`)
	// usageDurationRe is the duration in a sub-agent's report.
	usageDurationRe = regexp.MustCompile(`duration_ms: \d+`)
	// idKeys are keys whose string values are volatile ids in another form than a UUID.
	idKeys = map[string]bool{"run_id": true}
	// timeKeys are keys whose numbers measure time or vary with it.
	timeKeys = map[string]bool{
		"duration_ms": true, "duration_api_ms": true, "durationMs": true, "ttftMs": true,
		"totalDurationMs": true, "elapsed_time_seconds": true, "total_duration_ms": true,
		"durationSeconds": true, "ttft_ms": true, "seconds_since_last_response": true,
		"ttft_stream_ms": true, "time_to_request_ms": true, "first_content_frame_ms": true,
		"end_time": true, "start_time": true, "startTime": true, "endTime": true,
	}
)

// slug is the folder name Claude Code gives a project under ~/.claude/projects.
func slug(path string) string {
	return regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(path, "-")
}

// newNormalizer returns a normalizer for one scenario's scratch folders;
// sessions are the session ids in the order the runs started them.
func newNormalizer(tmp, cwd, home, baseURL, self string, sessions []string) *normalizer {
	pairs := [][2]string{
		{slug(cwd), "<cwd_slug>"}, {cwd, "<cwd>"}, {home, "<home>"}, {tmp, "<tmp>"}, {baseURL, "<base_url>"}, {self, "<record>"},
		{strings.TrimPrefix(baseURL, "http://"), "<base_host>"},
	}
	sort.SliceStable(pairs, func(i, j int) bool { return len(pairs[i][0]) > len(pairs[j][0]) })
	var flat []string
	for _, p := range pairs {
		flat = append(flat, p[0], p[1])
	}
	n := &normalizer{paths: strings.NewReplacer(flat...), placeholder: map[string]string{}, count: map[string]int{}}
	for _, s := range sessions {
		n.name("session_id", s)
	}
	return n
}

// name returns the placeholder of a volatile value, giving it one after key
// when it has none yet.
func (n *normalizer) name(key, val string) string {
	if p, ok := n.placeholder[val]; ok {
		return p
	}
	n.count[key]++
	p := "<" + key + ">"
	if c := n.count[key]; c > 1 {
		p = fmt.Sprintf("<%s_%d>", key, c)
	}
	n.placeholder[val] = p
	return p
}

// str normalizes a string found under key.
func (n *normalizer) str(key, s string) string {
	if key == "" {
		key = "uuid"
	}
	if uuidRe.MatchString(s) && len(uuidRe.FindString(s)) == len(s) {
		return n.name(key, s)
	}
	if agentIDRe.MatchString(s) && len(s) == 17 {
		return n.name("agent_id", s)
	}
	s = uuidRe.ReplaceAllStringFunc(s, func(u string) string { return n.name("uuid", u) })
	s = agentIDRe.ReplaceAllStringFunc(s, func(u string) string { return n.name("agent_id", u) })
	if idKeys[key] {
		return n.name(key, s)
	}
	s = isoRe.ReplaceAllString(s, "<timestamp>")
	s = socketRe.ReplaceAllString(s, "/tmp/cc-socks/<pid>.sock")
	s = usageDurationRe.ReplaceAllString(s, "duration_ms: 0")
	return n.paths.Replace(s)
}

// value normalizes v in place; key is the key v is found under.
func (n *normalizer) value(key string, v *value) {
	switch v.kind {
	case 'o':
		for i := range v.members {
			m := &v.members[i]
			m.key = n.paths.Replace(m.key)
			n.value(m.key, m.val)
		}
	case 'a':
		for _, item := range v.items {
			n.value(key, item)
		}
	case 's':
		v.str = n.str(key, v.str)
	case 'n':
		if timeKeys[key] {
			v.str = "0"
		}
	}
}

// json normalizes a JSON text; one that does not parse is normalized as a string.
func (n *normalizer) json(data []byte) *value {
	v, err := parse(data)
	if err != nil {
		return &value{kind: 's', str: n.str("", string(data))}
	}
	n.value("", v)
	return v
}
