package agent

// SetModel switches the model the next requests use, keeping the
// conversation; call it only between runs.
func (a *Agent) SetModel(model string) { a.opts.Model = model }
