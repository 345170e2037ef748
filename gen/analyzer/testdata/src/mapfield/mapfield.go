package mapfield

type Labels struct {
	Name   string            `json:"name" elicit:"title=Name"`
	Labels map[string]string `json:"labels"` // want `field Labels has type map\[string\]string, a map`
}
