// Package pagetest answers hosted form pages (runtime/page) the way a
// browser does, with plain HTTP: a GET that reads the CSRF token and
// cookie, then a form post. Tests use it to answer a page a tool result
// or a URL-mode request linked to.
package pagetest

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
)

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]*)"`)

// LinkIn returns the first URL in text under prefix (the pages' BaseURL),
// or "".
func LinkIn(text, prefix string) string {
	i := strings.Index(text, prefix)
	if i < 0 {
		return ""
	}
	end := i + len(prefix)
	for end < len(text) && !strings.ContainsRune(" \n\t\")", rune(text[end])) {
		end++
	}
	return text[i:end]
}

// Answer opens link as the person whose identity header is header (name:
// value; nil for none), and posts values with action ("accept" or
// "decline"). It returns the post's status and page, or the GET's when
// the GET did not show a form.
func Answer(ctx context.Context, link string, header http.Header, action string, values url.Values) (int, string, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return 0, "", err
	}
	for k, v := range header {
		get.Header[k] = v
	}
	status, body, err := do(c, get)
	if err != nil {
		return 0, "", err
	}
	m := csrfField.FindStringSubmatch(body)
	if status != http.StatusOK || m == nil {
		return status, body, nil
	}
	form := url.Values{}
	for k, v := range values {
		form[k] = v
	}
	form.Set("csrf", html.UnescapeString(m[1]))
	form.Set("action", action)
	post, err := http.NewRequestWithContext(ctx, http.MethodPost, link, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	for k, v := range header {
		post.Header[k] = v
	}
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return do(c, post)
}

func do(c *http.Client, r *http.Request) (int, string, error) {
	res, err := c.Do(r)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, "", fmt.Errorf("%s %s: %w", r.Method, r.URL, err)
	}
	return res.StatusCode, string(b), nil
}
