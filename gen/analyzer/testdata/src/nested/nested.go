package nested

type Address struct {
	Street string
}

type Order struct {
	Item string  `json:"item" elicit:"minLength=1"`
	Ship Address `json:"ship"` // want `field Ship has type Address, a nested struct: MCP forms are flat objects`
}
