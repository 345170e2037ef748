package runtime

import (
	"strings"
)

// MessageID names one of the runtime's own sentences: what it says about
// an invalid field, or around the field problems of a re-ask. A
// FieldError carries the ID of its sentence and the sentence's arguments,
// so that the sentence can be written for a person in their language
// (Catalog.Text) and for the model in English (FieldError.ModelText).
type MessageID string

// The runtime's sentences. A template names the field as {field} (its
// title in the person's language, or its key when it has no title) and
// the arguments as {0}, {1}, in the order the comment lists them. Values
// a client sent are quoted in the arguments already.
const (
	MsgRequired      MessageID = "required"      // the field is missing
	MsgNotField      MessageID = "notField"      // an unknown key was answered
	MsgMinLength     MessageID = "minLength"     // {0}: the least number of characters
	MsgMaxLength     MessageID = "maxLength"     // {0}: the most number of characters
	MsgEmail         MessageID = "email"         // {0}: the value
	MsgURI           MessageID = "uri"           // {0}: the value
	MsgDate          MessageID = "date"          // {0}: the value
	MsgDateTime      MessageID = "dateTime"      // {0}: the value
	MsgNotOption     MessageID = "notOption"     // {0}: the value, {1}: the options
	MsgNotFinite     MessageID = "notFinite"     // a NaN or infinite number
	MsgMinimum       MessageID = "minimum"       // {0}: the bound
	MsgMaximum       MessageID = "maximum"       // {0}: the bound
	MsgMinItems      MessageID = "minItems"      // {0}: the least number of choices
	MsgMaxItems      MessageID = "maxItems"      // {0}: the most number of choices
	MsgItemNotOption MessageID = "itemNotOption" // {0}: the item, {1}: the options
	MsgItemRepeated  MessageID = "itemRepeated"  // {0}: the item
	MsgMoreItems     MessageID = "moreItems"     // more items are wrong than are listed
	MsgType          MessageID = "type"          // {0}: the JSON type wanted, {1}: the one sent
	MsgInteger       MessageID = "integer"       // {0}: the number sent
	MsgRange         MessageID = "range"         // {0}: the number sent, too large for the field
	MsgPattern       MessageID = "pattern"       // {0}: the value; a person reads the field's PatternMessage when it has one
	MsgMore          MessageID = "more"          // {0}: how many more problems were found than are listed
	MsgRefused       MessageID = "refused"       // the client's own check refused the answer to the field ({field} "" for the whole form)
	MsgHidden        MessageID = "hidden"        // {0}: the character, as U+XXXX; a free-text answer holds an invisible or text-direction character (HiddenRune)

	// Sentences around the field problems.
	MsgRetry      MessageID = "retry"      // {0}: the problems; added to a re-ask's message
	MsgArgInvalid MessageID = "argInvalid" // {0}: the problems; added when a tool argument is asked again
	MsgPartial    MessageID = "partial"    // {0}: the titles asked; the message of a partial ask of missing arguments
	MsgListSep    MessageID = "listSep"    // joins problems
	MsgTitleSep   MessageID = "titleSep"   // joins titles in MsgPartial
	MsgOther      MessageID = "other"      // {0}: a problem in the author's own words (CheckElicit)

	// Sentences for the person when their client failed (Catalog.FailureText).
	MsgFailNoHandler     MessageID = "failNoHandler"     // the client has no handler for questions
	MsgFailClientInvalid MessageID = "failClientInvalid" // the client refused the question as invalid
	MsgFailRepeated      MessageID = "failRepeated"      // {field}: the fields' titles; the same invalid answer came twice
)

// Messages is the runtime's sentences in one language: a template for
// each MessageID (see the constants for their arguments). A template
// missing from a language falls back to English.
type Messages struct {
	// Tag is the BCP 47 language tag ("ja", "pt-BR").
	Tag string
	// Text maps each sentence to its template.
	Text map[MessageID]string
}

// Catalog holds the runtime's sentences in several languages: English
// and Japanese built in, and whatever languages an author adds with
// NewCatalog. Pass it to an ask with WithMessages. A Catalog is not
// changed after NewCatalog returns, so one may serve every request.
type Catalog struct {
	langs []Messages
}

// NewCatalog returns the built-in catalog (English and Japanese) with
// langs added. A language given here that is built in replaces the
// built-in templates it names and keeps the others.
func NewCatalog(langs ...Messages) *Catalog {
	c := &Catalog{langs: []Messages{{Tag: "en", Text: messagesEN}, {Tag: "ja", Text: messagesJA}}}
	for _, m := range langs {
		if m.Tag == "" {
			continue
		}
		text := make(map[MessageID]string, len(m.Text))
		i := -1
		for j := range c.langs {
			if strings.EqualFold(c.langs[j].Tag, m.Tag) {
				i = j
				for id, t := range c.langs[j].Text {
					text[id] = t
				}
			}
		}
		for id, t := range m.Text {
			text[id] = t
		}
		if i >= 0 {
			c.langs[i].Text = text
		} else {
			c.langs = append(c.langs, Messages{Tag: m.Tag, Text: text})
		}
	}
	return c
}

// Tags returns the catalog's language tags, English first.
func (c *Catalog) Tags() []string {
	if c == nil {
		return []string{"en", "ja"}
	}
	tags := make([]string, len(c.langs))
	for i := range c.langs {
		tags[i] = c.langs[i].Tag
	}
	return tags
}

// Match returns the catalog's language that best serves pref, a tag or
// an Accept-Language list ("en" when none does). A nil Catalog is the
// built-in one.
func (c *Catalog) Match(pref string) string {
	if t := MatchLanguage(pref, c.Tags()...); t != "" {
		return t
	}
	return "en"
}

// Text writes sentence id in the language that best serves lang, with
// field (a title, or a key) for {field} and args for {0}, {1}, ...
func (c *Catalog) Text(lang string, id MessageID, field string, args ...string) string {
	return expand(c.template(lang, id), field, args)
}

func (c *Catalog) template(lang string, id MessageID) string {
	if c == nil {
		if MatchLanguage(lang, "en", "ja") == "ja" {
			if t, ok := messagesJA[id]; ok {
				return t
			}
		}
		return templateEN(id)
	}
	tag := c.Match(lang)
	for _, m := range c.langs {
		if m.Tag == tag {
			if t, ok := m.Text[id]; ok {
				return t
			}
		}
	}
	return templateEN(id)
}

func templateEN(id MessageID) string {
	if t, ok := messagesEN[id]; ok {
		return t
	}
	return "{field}: {0}"
}

// expand fills a template's {field} and {N} placeholders.
func expand(t, field string, args []string) string {
	if !strings.Contains(t, "{") {
		return t
	}
	var sb strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			sb.WriteString(t)
			return sb.String()
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			sb.WriteString(t)
			return sb.String()
		}
		sb.WriteString(t[:i])
		name := t[i+1 : i+j]
		switch {
		case name == "field":
			sb.WriteString(field)
		case len(name) == 1 && name[0] >= '0' && name[0] <= '9':
			if n := int(name[0] - '0'); n < len(args) {
				sb.WriteString(args[n])
			}
		default:
			sb.WriteString(t[i : i+j+1])
		}
		t = t[i+j+1:]
	}
}

// WithMessages writes what this ask says to the person (the problems
// added to a re-ask's message, the message of a partial ask) from c, in
// the language the form is asked in. Without it the built-in catalog
// (English, Japanese) is used.
func WithMessages(c *Catalog) AskOption {
	return func(cfg *askConfig) { cfg.messages = c }
}

var messagesEN = map[MessageID]string{
	MsgRequired:      "{field} is required",
	MsgNotField:      "{field} is not a field of this form",
	MsgMinLength:     "{field} must be at least {0} characters long",
	MsgMaxLength:     "{field} must be at most {0} characters long",
	MsgEmail:         "{field} must be an email address ({0} is not)",
	MsgURI:           "{field} must be a full web address ({0} is not)",
	MsgDate:          "{field} must be a date, YYYY-MM-DD ({0} is not)",
	MsgDateTime:      "{field} must be a date and time ({0} is not)",
	MsgNotOption:     "{field} must be one of {1} ({0} is not)",
	MsgNotFinite:     "{field} must be a number",
	MsgMinimum:       "{field} must be at least {0}",
	MsgMaximum:       "{field} must be at most {0}",
	MsgMinItems:      "{field}: choose at least {0}",
	MsgMaxItems:      "{field}: choose at most {0}",
	MsgItemNotOption: "{field}: {0} is not one of {1}",
	MsgItemRepeated:  "{field}: {0} is chosen twice",
	MsgMoreItems:     "{field}: more choices are wrong",
	MsgType:          "{field} has a value of the wrong kind",
	MsgInteger:       "{field} must be a whole number ({0} is not)",
	MsgRange:         "{field} is too large ({0})",
	MsgPattern:       "{field} is not in the expected form",
	MsgMore:          "and {0} more problems",
	MsgRefused:       "the answer to {field} does not fit the form",
	MsgHidden:        "{field} contains an invisible or text-direction character ({0}): type it without it",
	MsgRetry:         "The previous answer was not accepted: {0}. Please correct it.",
	MsgArgInvalid:    "The value given was not accepted: {0}.",
	MsgPartial:       "Please fill in: {0}.",
	MsgListSep:       "; ",
	MsgTitleSep:      ", ",
	MsgOther:         "{field}: {0}",

	MsgFailNoHandler:     "Your app could not show this question: it has no way to display forms. Nothing was done.",
	MsgFailClientInvalid: "Your app could not show this question: it does not support this kind of question. Nothing was done.",
	MsgFailRepeated:      "Your app sent the same answer twice and seems unable to fill in {field}. Nothing was done.",
}

var messagesJA = map[MessageID]string{
	MsgRequired:      "「{field}」は必須です",
	MsgNotField:      "「{field}」はこのフォームの項目ではありません",
	MsgMinLength:     "「{field}」は{0}文字以上で入力してください",
	MsgMaxLength:     "「{field}」は{0}文字以内で入力してください",
	MsgEmail:         "「{field}」にはメールアドレスを入力してください（{0} は使えません）",
	MsgURI:           "「{field}」には完全な URL を入力してください（{0} は使えません）",
	MsgDate:          "「{field}」には日付を YYYY-MM-DD で入力してください（{0} は使えません）",
	MsgDateTime:      "「{field}」には日時を入力してください（{0} は使えません）",
	MsgNotOption:     "「{field}」は {1} のいずれかを選んでください（{0} は選べません）",
	MsgNotFinite:     "「{field}」には数値を入力してください",
	MsgMinimum:       "「{field}」は{0}以上にしてください",
	MsgMaximum:       "「{field}」は{0}以下にしてください",
	MsgMinItems:      "「{field}」は{0}個以上選んでください",
	MsgMaxItems:      "「{field}」は{0}個以内で選んでください",
	MsgItemNotOption: "「{field}」の {0} は {1} のいずれでもありません",
	MsgItemRepeated:  "「{field}」で {0} が重複しています",
	MsgMoreItems:     "「{field}」にはほかにも誤った選択があります",
	MsgType:          "「{field}」の値の種類が正しくありません",
	MsgInteger:       "「{field}」には整数を入力してください（{0} は使えません）",
	MsgRange:         "「{field}」の値が大きすぎます（{0}）",
	MsgPattern:       "「{field}」の形式が正しくありません",
	MsgMore:          "ほか{0}件の問題",
	MsgRefused:       "「{field}」の回答がフォームに合いません",
	MsgHidden:        "「{field}」に見えない文字か文字の向きを変える文字（{0}）が含まれています。その文字を除いて入力してください",
	MsgRetry:         "前回の回答は受け付けられませんでした: {0}。修正してください。",
	MsgArgInvalid:    "指定された値は受け付けられませんでした: {0}。",
	MsgPartial:       "次の項目を入力してください: {0}。",
	MsgListSep:       "、",
	MsgTitleSep:      "、",
	MsgOther:         "「{field}」: {0}",

	MsgFailNoHandler:     "お使いのアプリではこの質問を表示できませんでした（フォームを表示する機能がありません）。何も実行されていません。",
	MsgFailClientInvalid: "お使いのアプリではこの質問を表示できませんでした（この種類の質問に対応していません）。何も実行されていません。",
	MsgFailRepeated:      "お使いのアプリが同じ回答を2回送信しました。「{field}」を入力できないようです。何も実行されていません。",
}
