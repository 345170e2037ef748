package deliver

import "net/url"

// PageURL adds the query parameter name=value to base (handy to put a
// flow id into a URL-mode page). It returns base unchanged if it does not
// parse.
func PageURL(base, name, value string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}
