package tool

// Find returns the tool in pool answering to name or one of its aliases, or nil.
func Find(pool []Tool, name string) Tool {
	for _, t := range pool {
		if t.MatchesName(name) {
			return t
		}
	}
	return nil
}

// Names returns the names of the tools, in order.
func Names(pool []Tool) []string {
	names := make([]string, len(pool))
	for i, t := range pool {
		names[i] = t.Name()
	}
	return names
}
