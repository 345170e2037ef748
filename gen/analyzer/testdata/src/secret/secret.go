package secret

type Login struct {
	User     string `json:"user" elicit:"minLength=1"`
	Password string `json:"password"`         // want `field Password looks like a secret: .* URL mode`
	APIKey   string `json:"apiKey,omitempty"` // want `field APIKey looks like a secret`
}
