package strslice

type Tags struct {
	Tags []string `json:"tags" elicit:"maxItems=3"` // want `field Tags is \[\]string without enum=: a multi-select needs its options`
	Pick []string `json:"pick" elicit:"enum=a|b"`
}
