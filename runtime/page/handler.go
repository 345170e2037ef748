package page

import "net/http"

// ServeHTTP serves the page whose token ends the request's path: GET
// shows it, POST answers it.
func (p *Pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "not yet", http.StatusNotImplemented)
}
