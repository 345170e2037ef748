package app

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

// MaxRebooks is how many times book_table offers another date.
const MaxRebooks = 3

// DeployWait is how long a deploy approval stays open: its sealed state,
// its hosted page and, for a client with the Tasks extension, the
// question of its task.
const DeployWait = 72 * time.Hour

// TaskTTL is how long the server keeps a task readable: a day past the
// longest question it asks (DeployWait), so that an answer that comes
// after its question closed reaches the tool as an expired decline
// (Outcome.Expired) and the client reads that in the task's result,
// rather than finding no task.
const TaskTTL = DeployWait + 24*time.Hour

// DeployArgs are the arguments of deploy_to_production.
type DeployArgs struct {
	Service string `json:"service" jsonschema:"the service to deploy, e.g. billing"`
}

// DeployResult is the structured result of deploy_to_production.
type DeployResult struct {
	Outcome     string `json:"outcome" jsonschema:"accepted, declined, cancelled or unavailable"`
	Service     string `json:"service"`
	Branch      string `json:"branch,omitempty" jsonschema:"the branch the user chose"`
	Environment string `json:"environment,omitempty" jsonschema:"staging or production"`
	Confirmed   bool   `json:"confirmed" jsonschema:"whether the user confirmed the deploy"`
	Deployed    bool   `json:"deployed" jsonschema:"true only when accepted and confirmed"`
	Deployment  string `json:"deployment,omitempty" jsonschema:"the deployment id"`
}

// BookArgs are the arguments of book_table: the date and party size are
// asked of the user when the model leaves them out.
type BookArgs = forms.BookArgs

// BookResult is the structured result of book_table.
type BookResult struct {
	Outcome    string   `json:"outcome" jsonschema:"accepted, declined, cancelled or unavailable"`
	Date       string   `json:"date" jsonschema:"the date first asked for"`
	PartySize  int      `json:"party_size"`
	Tried      []string `json:"tried" jsonschema:"every date tried, in order"`
	Booked     bool     `json:"booked"`
	BookedDate string   `json:"booked_date,omitempty"`
	Booking    string   `json:"booking,omitempty" jsonschema:"the booking id"`
}

// KRArgs are the arguments of kr_dashboard: the key result is asked of
// the user when the model leaves it out.
type KRArgs = forms.KRArgs

// KRResult is the structured result of kr_dashboard.
type KRResult struct {
	Outcome string   `json:"outcome" jsonschema:"accepted, declined, cancelled or unavailable"`
	Org     string   `json:"org"`
	Offered []string `json:"offered" jsonschema:"the key result ids offered to the user"`
	KR      string   `json:"kr,omitempty" jsonschema:"the key result the user chose"`
	Title   string   `json:"title,omitempty"`
	Records []Record `json:"records,omitempty"`
}

// CampaignArgs are the arguments of send_campaign.
type CampaignArgs struct {
	Campaign   string   `json:"campaign" jsonschema:"the campaign name"`
	Recipients []string `json:"recipients" jsonschema:"the recipients' addresses"`
}

// CampaignResult is the structured result of send_campaign.
type CampaignResult struct {
	Outcome    string `json:"outcome" jsonschema:"accepted, declined, cancelled or unavailable"`
	Campaign   string `json:"campaign"`
	Recipients int    `json:"recipients" jsonschema:"how many recipients"`
	Approved   bool   `json:"approved"`
	SendWindow string `json:"send_window,omitempty" jsonschema:"now, tonight or tomorrow"`
	Scheduled  bool   `json:"scheduled" jsonschema:"true only when accepted and approved"`
	ID         string `json:"id,omitempty" jsonschema:"the scheduled campaign's id"`
}

// ConnectArgs are the arguments of connect_account.
type ConnectArgs struct {
	Provider string `json:"provider" jsonschema:"the provider, e.g. github"`
}

// ConnectResult is the structured result of connect_account.
type ConnectResult struct {
	Outcome  string `json:"outcome" jsonschema:"accepted, declined, cancelled or unavailable"`
	Provider string `json:"provider"`
	URL      string `json:"url,omitempty" jsonschema:"the page the user was asked to open"`
	FlowID   string `json:"flow_id,omitempty" jsonschema:"correlates the page with this call"`
}

// reaskOnce asks a form once more when the person's answer is invalid,
// saying what was wrong in their language, instead of failing the call
// over one typo.
var reaskOnce = runtime.WithRetries(1)

var providerRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

func (a *App) addTools(s *mcp.Server) {
	addTool(a, s, ToolDeploy, "Deploy a service",
		"Deploys a service after the user picks the branch (pre-filled with the service's current branch) and environment and confirms.", a.deploy)
	addTool(a, s, ToolBook, "Book a table",
		fmt.Sprintf("Books a table. Asks the user for the date or party size when not given. When the date is fully booked, asks the user whether to try another date, up to %d times.", MaxRebooks), a.book)
	addTool(a, s, ToolKR, "Key result dashboard",
		"Returns the records of one of the organisation's key results; asks the user which one when kr is not given.", a.kr)
	addTool(a, s, ToolCampaign, "Send a campaign",
		"Sends an e-mail campaign once the user approves it and picks a send window.", a.campaign)
	addTool(a, s, ToolConnect, "Connect an account",
		"Asks the user to connect an account on the provider's page (URL-mode elicitation: credentials never pass through the client).", a.connect)
}

// addTool adds the typed tool name to s, wrapped by the go-sdk adapter,
// with the output schema of Out (whose outcome is one of Outcomes).
func addTool[In, Out any](a *App, s *mcp.Server, name, title, description string, h gosdk.HandlerFor[In, Out]) {
	t := &mcp.Tool{Name: name, Title: title, Description: description, InputSchema: gosdk.InputSchema[In](), OutputSchema: outputSchema[Out]()}
	mcp.AddTool(s, t, gosdk.HandleFor(a.cfg, h))
}

// deploy asks which branch and environment, pre-filling the service's
// current branch, and deploys only when accepted with the confirm box
// ticked (forms.Deploy.Confirmed is tagged confirm).
func (a *App) deploy(ctx context.Context, _ *mcp.CallToolRequest, in DeployArgs, ask runtime.Asker) (*mcp.CallToolResult, DeployResult, error) {
	res := DeployResult{Service: in.Service}
	branch, known := a.store.Branch(in.Service)
	if !known {
		return nil, res, fmt.Errorf("unknown service %q", in.Service)
	}
	opts := append([]runtime.AskOption{runtime.WithDefault("branch", branch), runtime.WithAuditFields("environment"), reaskOnce,
		runtime.WithWait(DeployWait)}, // a production deploy may wait days for its approver
		a.deployApprovers...) // ELICIT_APPROVERS: one of them, not the requester; ELICIT_PASSKEY: with a passkey
	out, err := forms.AskDeploy(ctx, ask, deployMessage(ask, in.Service, branch), opts...) // locale.go
	if err != nil {
		res.Outcome = OutcomeUnavailable
		return askFailed(err, res)
	}
	res.Outcome = outcome(out.Action)
	v, ok := out.Accepted()
	switch {
	case out.Expired():
		return &mcp.CallToolResult{Content: text("Not deployed: the approval expired before it was answered. Ask again if the deploy is still wanted.")}, res, nil
	case !ok:
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("Not deployed: the user %s.", res.Outcome))}, res, nil
	}
	// Confirmed is tagged confirm: an accept with the box unticked came
	// back as a decline, so an accepted deploy is a confirmed one.
	res.Branch, res.Environment, res.Confirmed = v.Branch, string(v.Environment), v.Confirmed
	d := a.store.Deploy(in.Service, v.Branch, string(v.Environment))
	a.logf("deployed %s@%s to %s: %s", in.Service, v.Branch, v.Environment, d.ID)
	res.Deployed, res.Deployment = true, d.ID
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("Deployed %s@%s to %s (%s).", in.Service, v.Branch, v.Environment, d.ID))}, res, nil
}

// book books a table on the date, or, while the date is fully booked,
// asks whether to try another one (pre-filling the next free date), at
// most MaxRebooks times.
func (a *App) book(ctx context.Context, _ *mcp.CallToolRequest, in BookArgs, ask runtime.Asker) (*mcp.CallToolResult, BookResult, error) {
	res := BookResult{Tried: []string{}}
	// The date and party size the model left out (or gave invalid values
	// for) are asked of the user; a complete call asks nothing.
	act, err := forms.AskMissingBookArgs(ctx, ask, &in, "Which date, and for how many people?", reaskOnce)
	res.Date, res.PartySize = in.Date, in.PartySize
	if err != nil {
		res.Outcome = OutcomeUnavailable
		return askFailed(err, res)
	}
	if res.Outcome = outcome(act); act != runtime.ActionAccept {
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("No table: the user %s.", res.Outcome))}, res, nil
	}
	date := in.Date
	for asked := 0; ; asked++ {
		res.Tried = append(res.Tried, date)
		if !a.store.FullyBooked(date) {
			b := a.store.Book(date, in.PartySize)
			res.Booked, res.BookedDate, res.Booking = true, date, b.ID
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("Booked a table for %d on %s (%s).", in.PartySize, date, b.ID))}, res, nil
		}
		if asked == MaxRebooks {
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("No table: %d dates tried, all fully booked.", len(res.Tried)))}, res, nil
		}
		next := a.store.NextFree(date)
		out, err := forms.AskRebook(ctx, ask,
			fmt.Sprintf("%s is fully booked for %d. Try another date? The next free date is %s.", date, in.PartySize, next),
			runtime.WithDefault("preferred_date", next), reaskOnce)
		if err != nil {
			res.Outcome = OutcomeUnavailable
			return askFailed(err, res)
		}
		res.Outcome = outcome(out.Action)
		v, ok := out.Accepted()
		if !ok {
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("No table on %s; the user %s.", date, res.Outcome))}, res, nil
		}
		if !v.TryAnotherDate {
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("No table on %s; the user chose not to try another date.", date))}, res, nil
		}
		date = v.PreferredDate // the default (next free date) when the user left it empty
	}
}

// krOptions offers the key results of the organisation the model named,
// and only those: a kr the model gave is checked against them, and a
// missing one is asked with them as the choices. (With gosdk.HandleArgs it
// is the Options of runtime.MissingArgs.)
func (a *App) krOptions(_ context.Context, in *KRArgs) ([]runtime.AskOption, error) {
	krs := a.store.KRs(in.Org)
	if len(krs) == 0 {
		return nil, fmt.Errorf("organisation %q has no key results", in.Org)
	}
	opts := make([]runtime.Option, len(krs))
	for i, kr := range krs {
		opts[i] = runtime.Option{Value: kr.ID, Title: kr.Title}
	}
	return []runtime.AskOption{runtime.WithOptions("kr", opts...), reaskOnce}, nil
}

// kr returns the records of a key result of the org: the one the model
// named, checked against the org's, or, when it named none, the one the
// user picks among the org's.
func (a *App) kr(ctx context.Context, _ *mcp.CallToolRequest, in KRArgs, ask runtime.Asker) (*mcp.CallToolResult, KRResult, error) {
	res := KRResult{Org: in.Org, Offered: []string{}}
	opts, err := a.krOptions(ctx, &in)
	if err != nil {
		return nil, res, err
	}
	for _, kr := range a.store.KRs(in.Org) {
		res.Offered = append(res.Offered, kr.ID)
	}
	act, err := forms.AskMissingKRArgs(ctx, ask, &in, fmt.Sprintf("Which of %s's %d key results should I open?", in.Org, len(res.Offered)), opts...)
	if err != nil {
		res.Outcome = OutcomeUnavailable
		return askFailed(err, res)
	}
	if res.Outcome = outcome(act); act != runtime.ActionAccept {
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("No key result opened: the user %s.", res.Outcome))}, res, nil
	}
	for _, kr := range a.store.KRs(in.Org) {
		if kr.ID == in.KR { // AskMissing checked it against the options
			res.KR, res.Title, res.Records = kr.ID, kr.Title, kr.Records
		}
	}
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("%s: %q, %d records.", res.KR, res.Title, len(res.Records)))}, res, nil
}

// campaign asks for approval, naming the recipient count, and a send
// window, and schedules the campaign only when approved.
func (a *App) campaign(ctx context.Context, _ *mcp.CallToolRequest, in CampaignArgs, ask runtime.Asker) (*mcp.CallToolResult, CampaignResult, error) {
	res := CampaignResult{Campaign: in.Campaign, Recipients: len(in.Recipients)}
	if len(in.Recipients) == 0 {
		return nil, res, fmt.Errorf("campaign %q has no recipients", in.Campaign)
	}
	noun := "recipients"
	if len(in.Recipients) == 1 {
		noun = "recipient"
	}
	out, err := forms.AskCampaignApproval(ctx, ask, fmt.Sprintf("Send campaign %q to %d %s?", in.Campaign, len(in.Recipients), noun),
		append([]runtime.AskOption{reaskOnce}, a.campaignApprovers...)...) // ELICIT_QUORUM of ELICIT_APPROVERS
	if err != nil {
		res.Outcome = OutcomeUnavailable
		return askFailed(err, res)
	}
	res.Outcome = outcome(out.Action)
	v, ok := out.Accepted()
	if !ok {
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("Not sent: the user %s.", res.Outcome))}, res, nil
	}
	res.Approved, res.SendWindow = v.Approved, string(v.Window)
	if !v.Approved {
		return &mcp.CallToolResult{Content: text("Not sent: the user did not approve.")}, res, nil
	}
	c := a.store.Schedule(in.Campaign, len(in.Recipients), string(v.Window))
	a.logf("scheduled campaign %q to %d recipients: %s", in.Campaign, len(in.Recipients), c.ID)
	res.Scheduled, res.ID = true, c.ID
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("Campaign %q to %d %s scheduled: %s (%s).", in.Campaign, len(in.Recipients), noun, v.Window, c.ID))}, res, nil
}

// connect asks the user to open the provider's connect page (URL mode).
// Accept means the user agreed to open it; the page finishes the flow out
// of band, correlated by the flow id.
func (a *App) connect(ctx context.Context, _ *mcp.CallToolRequest, in ConnectArgs, ask runtime.Asker) (*mcp.CallToolResult, ConnectResult, error) {
	res := ConnectResult{Provider: in.Provider}
	if !providerRE.MatchString(in.Provider) {
		return nil, res, fmt.Errorf("provider %q: want lowercase letters, digits and dashes", in.Provider)
	}
	var page string
	out, err := runtime.AskURLFlow(ctx, ask, fmt.Sprintf("Connect your %s account: sign in on its page.", in.Provider),
		func(flow string) string {
			page = deliver.PageURL(a.connectBase+"/"+in.Provider, "flow", flow)
			return page
		})
	if err != nil {
		res.Outcome = OutcomeUnavailable
		return askFailed(err, res)
	}
	res.Outcome = outcome(out.Action)
	if out.Action != runtime.ActionAccept {
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("Not connected: the user %s.", res.Outcome))}, res, nil
	}
	res.URL, res.FlowID = page, out.FlowID
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("The user is connecting %s at %s.", in.Provider, page))}, res, nil
}
