package agent

// SetModel switches the model the next requests use, keeping the
// conversation; call it only between runs.
func (a *Agent) SetModel(model string) { a.opts.Model = model }

// useModel runs the next requests on name (resolved as an Agent call's model
// is) and returns what puts the session's model back: a command's model
// holds for its turn.
func (a *Agent) useModel(name string) func() {
	prev := a.opts.Model
	if a.opts.SubAgents != nil && a.opts.SubAgents.Model != nil {
		name = a.opts.SubAgents.Model(name)
	}
	a.opts.Model = name
	return func() { a.opts.Model = prev }
}
