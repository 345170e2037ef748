package unknownkey

type Profile struct {
	Name string `json:"name" elicit:"minLength=1,titel=Name"` // want `unknown elicit option "titel" \(did you mean "title"\?\)`
}
