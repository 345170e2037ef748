package testforms

// Env is a deployment environment.
type Env string

// Environments.
const (
	EnvStaging Env = "staging" // Staging
	EnvProd    Env = "prod"    // Production
)

// Deploy asks where and how to deploy.
type Deploy struct {
	// Branch is the git branch to deploy.
	Branch string `json:"branch,omitempty" elicit:"default=main,minLength=1"`
	// Env is the target environment.
	Env Env `json:"env,omitempty" elicit:"title=Environment,default=staging"`
	// Replicas is how many instances to run.
	Replicas int `json:"replicas" elicit:"min=1,max=10"`
	// I understand that the deploy takes live traffic.
	Confirm bool `json:"confirm,omitempty" elicit:"default=false"`
}

// Approve is the second step of a deploy: a final go/no-go.
type Approve struct {
	// Go ahead with the deploy.
	Approve bool `json:"approve"`
	// Note is left in the audit log.
	Note *string `json:"note" elicit:"maxLength=200"`
}

// Channel is a notification channel.
type Channel string

// Channels.
const (
	ChannelEmail Channel = "email" // E-mail
	ChannelSlack Channel = "slack" // Slack
)

// Notify picks notification channels (a multi-select form, which a
// 2025-06-18 client cannot be asked).
type Notify struct {
	// Channels to notify.
	Channels []Channel `json:"channels" elicit:"minItems=1"`
}

// Subscribe asks for an address and, optionally, channels: a 2025-06-18
// client, which has no multi-select, is asked without the channels, which
// then take their default.
type Subscribe struct {
	// Email address for the digest.
	Email string `json:"email" elicit:"format=email"`
	// Channels to notify besides the digest.
	Channels []Channel `json:"channels,omitempty" elicit:"default=email"`
}

// BookArgs are the arguments of a booking tool: Org is the model's alone;
// Date and PartySize are asked when the model leaves them out.
type BookArgs struct {
	Org string `json:"org"`
	// The date to book.
	Date      string `json:"date,omitempty" elicit:"ask,title=Date,format=date"`
	PartySize int    `json:"party_size,omitempty" elicit:"ask,title=Party size,min=1,max=12"`
}

// Release approves a production release: the box tagged confirm is the
// approval, so an accept that leaves it unticked is a decline.
type Release struct {
	// Ticket is the change ticket.
	Ticket string `json:"ticket" elicit:"pattern='^CHG-[0-9]{4,8}$',patternMessage='a change number like CHG-1234'"`
	// Ship it to production.
	Approve bool `json:"approve" elicit:"title=Approve,confirm"`
}
