package tools

// Prepare generates the input schemas of the built-in tools on a goroutine of
// its own. A run calls it first thing: its first request sends the schemas,
// and they are ready by then, made on another core while the run reads its
// settings, memory files and transcript folder.
func Prepare() {
	go func() {
		for _, t := range builtins {
			t.InputSchema()
		}
	}()
}
