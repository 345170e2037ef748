package page

import (
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// text is the page's own wording in one language: everything on the page
// that is not the question's (its message, titles, descriptions and
// options come translated in the Question).
type text struct {
	Lang     string
	Title    string // the page's heading and <title>
	Accept   string
	Decline  string
	Required string
	Choose   string // the empty choice of a select
	Fix      string // heading of the error summary

	Sent     string
	Declined string
	Answered string
	Expired  string
	Invalid  string
	Foreign  string
	SignIn   string
	Store    string
	Stale    string // the CSRF check failed
	TooLarge string
	BadPost  string
	Method   string

	Closes string // time.Format layout sentence: "This page closes at " + time
	Date   string // hint of a date input
	Stamp  string // hint of a date-time input
	Email  string
	URI    string

	NotNumber  string
	NotInteger string
	Once       string
	TooLong    string
	BadBool    string

	// Runtime holds translations of the runtime's exact field messages
	// (the runtime's message catalog will supersede it).
	Runtime map[string]string
}

// say returns the runtime's field message msg in t's language, when t
// has it.
func (t *text) say(msg string) string {
	if m, ok := t.Runtime[msg]; ok {
		return m
	}
	return msg
}

var texts = []text{{
	Lang:     "en",
	Title:    "Your answer is needed",
	Accept:   "Accept",
	Decline:  "Decline",
	Required: "(required)",
	Choose:   "Choose…",
	Fix:      "Please correct the following:",

	Sent:     "Thank you: your answer was sent. You can close this page.",
	Declined: "You declined: nothing was sent. You can close this page.",
	Answered: "This question has already been answered.",
	Expired:  "This link has expired.",
	Invalid:  "This link is not valid.",
	Foreign:  "This question was asked of someone else.",
	SignIn:   "Sign in to answer this question.",
	Store:    "Your answer could not be saved: please try again in a moment.",
	Stale:    "This form could not be checked: open the link again to answer.",
	TooLarge: "This answer is too large.",
	BadPost:  "This is not an answer this page can read.",
	Method:   "This page takes answers only from its form.",

	Closes: "This page closes at 15:04 MST on 2 January 2006.",
	Date:   "YYYY-MM-DD",
	Stamp:  "A date and time, such as 2026-07-28T09:30:00Z",
	Email:  "An email address",
	URI:    "A full web address, such as https://example.com/",

	NotNumber:  "must be a number",
	NotInteger: "must be a whole number",
	Once:       "must be given once",
	TooLong:    "is too long",
	BadBool:    "must be ticked or left unticked",
}, {
	Lang:     "ja",
	Title:    "ご回答をお願いします",
	Accept:   "回答する",
	Decline:  "辞退する",
	Required: "（必須）",
	Choose:   "選択してください",
	Fix:      "次の項目を修正してください:",

	Sent:     "ありがとうございます。回答を送信しました。このページは閉じてかまいません。",
	Declined: "辞退しました。何も送信されていません。このページは閉じてかまいません。",
	Answered: "この質問にはすでに回答済みです。",
	Expired:  "このリンクは有効期限が切れています。",
	Invalid:  "このリンクは無効です。",
	Foreign:  "この質問は別の方に宛てたものです。",
	SignIn:   "この質問に回答するにはサインインしてください。",
	Store:    "回答を保存できませんでした。しばらくしてからもう一度お試しください。",
	Stale:    "このフォームを確認できませんでした。リンクを開き直して回答してください。",
	TooLarge: "回答が大きすぎます。",
	BadPost:  "このページでは読み取れない回答です。",
	Method:   "このページはフォームからの回答のみ受け付けます。",

	Closes: "このページは2006年1月2日 15:04 MSTに閉じます。",
	Date:   "YYYY-MM-DD",
	Stamp:  "日時（例: 2026-07-28T09:30:00Z）",
	Email:  "メールアドレス",
	URI:    "完全なウェブアドレス（例: https://example.com/）",

	NotNumber:  "数値を入力してください",
	NotInteger: "整数を入力してください",
	Once:       "一度だけ指定してください",
	TooLong:    "長すぎます",
	BadBool:    "チェックを入れるか外してください",

	Runtime: map[string]string{
		"is required":                 "入力してください",
		"is not a field of this form": "このフォームの項目ではありません",
	},
}}

var textTags = func() []string {
	tags := make([]string, len(texts))
	for i := range texts {
		tags[i] = texts[i].Lang
	}
	return tags
}()

// textFor returns the page's wording for pref, a language tag or an
// Accept-Language list; English when none serves it.
func textFor(pref string) *text {
	tag := runtime.MatchLanguage(pref, textTags...)
	for i := range texts {
		if texts[i].Lang == tag {
			return &texts[i]
		}
	}
	return &texts[0]
}

// closes says when a page closes, in UTC.
func (t *text) closes(at time.Time) string {
	return at.UTC().Format(t.Closes)
}
