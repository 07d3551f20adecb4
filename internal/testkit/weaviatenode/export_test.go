package weaviatenode

// SetPortsPicked makes f run, with the chosen HTTP port, between the choice of a start's
// ports and the server's start; the returned function puts the default back.
func SetPortsPicked(f func(httpPort int)) (restore func()) {
	old := portsPicked
	portsPicked = func(p ports) { f(p.HTTP) }
	return func() { portsPicked = old }
}
