package deliver

import (
	"errors"
	"sync"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
)

// Routes chooses how each question of one call reaches the person, and
// keeps what its exchange reports of them: the rendering chosen for each
// key and the links the tool result carries. The zero value has no pages
// and no form apps; it is safe for concurrent use.
type Routes struct {
	// Pages serve the questions whose rendering is a hosted page; nil
	// means none.
	Pages *page.Pages
	// FormApps: the adapter renders forms as an MCP App for clients that
	// declare it.
	FormApps bool
	// Policy is the server-wide rendering of form questions whose ask
	// names none (adapter.Options.Rendering); runtime.RenderingAuto
	// chooses per client.
	Policy runtime.Rendering
	// Hold is how long a 2025-era URL-mode ask holds its call for the
	// page's answer (URLPage.Hold; adapter.Options.PageHold).
	Hold time.Duration

	mu      sync.Mutex
	renders map[string]choice
	links   []*LinkRequiredError
}

// choice is the rendering chosen for a question, and why.
type choice struct {
	r   runtime.Rendering
	why string
}

// Route chooses the rendering of req, asked under key, from in (see
// ChooseRendering; Routes sets in.Pages and in.App), records it, and
// returns the delivery that asks it on pages, or nil when the client's own
// form asks it. An override the client or the server cannot take is an
// error matching runtime.ErrUnavailable.
func (rs *Routes) Route(key string, req *runtime.Request, in RenderingInput) (Delivery, error) {
	in.Pages, in.App, in.Policy = rs.Pages != nil, in.App && rs.FormApps, rs.Policy
	r, why := ChooseRendering(in)
	if r == runtime.RenderingAuto && (in.Override != runtime.RenderingAuto || in.Policy != runtime.RenderingAuto) {
		return nil, unavailable(req, why)
	}
	rs.mu.Lock()
	if rs.renders == nil {
		rs.renders = make(map[string]choice, 1)
	}
	rs.renders[key] = choice{r, why}
	rs.mu.Unlock()
	d := For(r, rs.Pages)
	if u, ok := d.(*URLPage); ok {
		u.Hold = rs.Hold
	}
	return d, nil
}

// FlowLink records that the URL flow asked under key goes out as its link
// (runtime.RenderingLink), for why, and returns its delivery.
func (rs *Routes) FlowLink(key, why string) Delivery {
	rs.mu.Lock()
	if rs.renders == nil {
		rs.renders = make(map[string]choice, 1)
	}
	rs.renders[key] = choice{runtime.RenderingLink, why}
	rs.mu.Unlock()
	return &FlowLink{Pages: rs.Pages}
}

// Approval records that the question asked under key goes to the hosted
// page for its approvers (runtime.WithApprovers) as its link
// (runtime.RenderingLink), for why, and returns its delivery.
func (rs *Routes) Approval(key, why string) Delivery {
	rs.mu.Lock()
	if rs.renders == nil {
		rs.renders = make(map[string]choice, 1)
	}
	rs.renders[key] = choice{runtime.RenderingLink, why}
	rs.mu.Unlock()
	return &Link{Pages: rs.Pages}
}

// Rendering returns the rendering chosen for key and why; "" when none
// was.
func (rs *Routes) Rendering(key string) (runtime.Rendering, string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	c := rs.renders[key]
	return c.r, c.why
}

// Note keeps the link of err, the error of a delivery, when it is a
// *LinkRequiredError.
func (rs *Routes) Note(err error) {
	var le *LinkRequiredError
	if errors.As(err, &le) {
		rs.mu.Lock()
		rs.links = append(rs.links, le)
		rs.mu.Unlock()
	}
}

// Links returns the links noted, in the order asked.
func (rs *Routes) Links() []*LinkRequiredError {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]*LinkRequiredError(nil), rs.links...)
}
