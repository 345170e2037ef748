package gen

import "github.com/dave/jennifer/jen"

// emitArgs emits what a tool's arguments struct T adds to its form, and
// the hook assertion of a form with a CheckElicit method; desc is the
// form's descriptor (elicitFormT):
//
//	func AskMissingT(ctx, asker, v *T, message string, opts ...runtime.AskOption) (runtime.Action, error)
//	var _ runtime.FormChecker = (*T)(nil)
func emitArgs(f *jen.File, form *Form, desc string) {
	t := form.Name
	if form.Args {
		name := askMissingName(t)
		f.Commentf("%s asks the person for the fields of v tagged ask that the model", name)
		f.Comment("left out or gave invalid values for, in one form, and merges the answer")
		f.Comment("into v. It returns runtime.ActionAccept, without asking when nothing was")
		f.Comment("missing, once v is complete; see runtime.Form.AskMissing.")
		f.Func().Id(name).Params(
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("asker").Add(rt("Asker")),
			jen.Id("v").Op("*").Id(t),
			jen.Id("message").String(),
			jen.Id("opts").Op("...").Add(rt("AskOption")),
		).Params(rt("Action"), jen.Error()).Block(jen.Return(jen.Id(desc).Dot("AskMissing").Call(
			jen.Id("ctx"), jen.Id("asker"), jen.Id("v"), jen.Id("message"), jen.Id("opts").Op("..."))))
	}
	if form.Checked {
		f.Commentf("Answers to %s are checked with its CheckElicit method too.", t)
		f.Var().Id("_").Add(rt("FormChecker")).Op("=").Parens(jen.Op("*").Id(t)).Parens(jen.Nil())
	}
}
