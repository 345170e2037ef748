// Package typeflag generates only Deploy, as its directive says: the
// analyzer checks the same forms, so Other is not reported, and the
// missing type is reported at the directive.
package typeflag

//go:generate go tool elicitgen --type Deploy,Missing // want `type Missing not found in package typeflag`

//go:generate go tool elicitgen docs --type Other -o FORMS.md

type Deploy struct {
	Service string `json:"service" elicit:"minLength=1"`
}

type Other struct {
	M map[string]int `json:"m" elicit:"title=M"`
}
