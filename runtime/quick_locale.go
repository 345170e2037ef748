package runtime

// quickLocales translate the default titles of the quick asks' fields,
// so that a question asked in another language (WithLocale, or the
// client's preference that an adapter reads) is not titled in English.
// A title given with WithTitle is sent as given, in any language.
var quickLocales = []Locale{
	{Tag: "en"}, // the source text: a preference for English stops here
	{Tag: "de", Props: quickTitles("Bestätigen", "Ihre Antwort", "Ihre Auswahl", "Ihre Auswahl (mehrere möglich)")},
	{Tag: "es", Props: quickTitles("Confirmar", "Su respuesta", "Su elección", "Sus elecciones")},
	{Tag: "fr", Props: quickTitles("Confirmer", "Votre réponse", "Votre choix", "Vos choix")},
	{Tag: "ja", Props: quickTitles("確認", "回答", "選択", "選択（複数可）")},
	{Tag: "ko", Props: quickTitles("확인", "답변", "선택", "선택(복수 가능)")},
}

// quickTitles lists one language's titles of the four quick-ask fields.
func quickTitles(confirm, text, choice, choices string) []PropText {
	return []PropText{
		{Name: ConfirmField, Title: confirm},
		{Name: TextField, Title: text},
		{Name: ChoiceField, Title: choice},
		{Name: ChoicesField, Title: choices},
	}
}
