package worktree

import (
	"math/rand/v2"
)

// Words of the names RandomName makes, in Claude Code's manner: two
// adjectives and a noun ("composed-drifting-zebra").
var (
	adjectives = []string{"amber", "bold", "brisk", "calm", "clever", "composed", "curious", "dapper", "drifting",
		"eager", "fleet", "gentle", "glowing", "humble", "jolly", "keen", "kindling", "lively", "lucid", "mellow",
		"nimble", "patient", "quiet", "rapid", "rustling", "serene", "steady", "sunny", "swift", "tidy", "vivid", "wandering"}
	nouns = []string{"badger", "brook", "cedar", "comet", "dune", "ember", "falcon", "fern", "flame", "glacier",
		"harbor", "heron", "lantern", "maple", "meadow", "otter", "pebble", "quartz", "raven", "river", "sparrow",
		"spruce", "thistle", "tide", "willow", "zebra"}
)

// RandomName returns a name for a worktree the user did not name, such as
// "brisk-glowing-heron".
func RandomName() string {
	first := adjectives[rand.IntN(len(adjectives))]
	second := adjectives[rand.IntN(len(adjectives))]
	for second == first {
		second = adjectives[rand.IntN(len(adjectives))]
	}
	return first + "-" + second + "-" + nouns[rand.IntN(len(nouns))]
}
