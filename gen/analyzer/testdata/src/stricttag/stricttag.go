package stricttag

// Bounds would lose its bounds to a tag reflect cannot read.
type Bounds struct {
	Count int    `json:"count" elicit: "min=1,max=10"` // want `struct tag key elicit has a space after its colon, so reflect ignores the tag from there: write elicit:"min=1,max=10"`
	Name  string `json:"name" elicit:"title=Name"`
}

// Lone's only elicit tag is malformed: it is reported, not dropped.
type Lone struct {
	Count int `json:"count" elicit:'min=1'` // want `struct tag value of elicit is in single quotes, so reflect ignores it: struct tags take double quotes: write elicit:"min=1"`
}
