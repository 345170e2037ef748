package minmax

type Replicas struct {
	Count int `json:"count" elicit:"min=10,max=1"` // want `min 10 is above max 1`
}
