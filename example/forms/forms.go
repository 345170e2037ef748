package forms

// Environment is where a service is deployed.
type Environment string

// Environments, in the order they are offered.
const (
	EnvironmentStaging    Environment = "staging"    // Staging
	EnvironmentProduction Environment = "production" // Production
)

// Deploy confirms a deploy of one service (tool deploy_to_production).
type Deploy struct {
	// Branch is the git branch to deploy.
	Branch string `json:"branch" elicit:"title=Branch,default=main,minLength=1,maxLength=100"`
	// Environment is where the branch goes.
	Environment Environment `json:"environment" elicit:"title=Environment"`
	// I understand that the deploy reaches live traffic.
	Confirmed bool `json:"confirmed" elicit:"confirm,title=I confirm this deploy"`
}

// Rebook asks what to do when the requested date is fully booked (tool
// book_table).
type Rebook struct {
	// Look for a table on another date.
	TryAnotherDate bool `json:"try_another_date" elicit:"title=Try another date?"`
	// PreferredDate is the date to try instead.
	PreferredDate string `json:"preferred_date,omitempty" elicit:"title=Preferred date,format=date"`
}

// BookArgs are the arguments of tool book_table. The date and party size
// are asked of the person when the model leaves them out (or gives a date
// or size the restaurant does not take).
type BookArgs struct {
	// The date to book.
	Date string `json:"date,omitempty" jsonschema:"the date, YYYY-MM-DD; asked of the user when left out" elicit:"ask,title=Date,format=date"`
	// How many people, 1 to 12.
	PartySize int `json:"party_size,omitempty" jsonschema:"how many people, 1 to 12; asked of the user when left out" elicit:"ask,title=Party size,min=1,max=12"`
}

// KRArgs are the arguments of tool kr_dashboard. The key result is asked
// of the person when the model leaves it out; its choices are the
// organisation's key results, supplied when asking, and a key result the
// model gives is checked against them.
type KRArgs struct {
	Org string `json:"org" jsonschema:"the organisation, e.g. acme"`
	// The key result to show.
	KR string `json:"kr,omitempty" jsonschema:"the key result id; asked of the user when left out" elicit:"ask,title=Key result,options"`
}

// SendWindow is when a campaign goes out.
type SendWindow string

// Send windows, in the order they are offered.
const (
	SendNow      SendWindow = "now"      // Now
	SendTonight  SendWindow = "tonight"  // Tonight at 20:00
	SendTomorrow SendWindow = "tomorrow" // Tomorrow at 09:00
)

// CampaignApproval approves sending a campaign (tool send_campaign).
type CampaignApproval struct {
	// Approving sends the campaign to its recipients.
	Approved bool `json:"approved" elicit:"title=Approve sending"`
	// Window is when to send it.
	Window SendWindow `json:"send_window,omitempty" elicit:"title=Send window,default=now"`
}
