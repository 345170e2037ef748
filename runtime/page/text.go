package page

import (
	"strconv"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// text is the page's own wording in one language: everything on the page
// that is not the question's (its message, titles, descriptions and
// options come translated in the Question) and not the runtime's
// sentences about invalid fields (runtime.Catalog). Templates name a
// field as {field} (its title) and arguments as {0}, {1}.
type text struct {
	Lang     string
	Title    string // the form's heading and <title>
	Accept   string
	Decline  string
	Required string
	Choose   string // the empty choice of a select
	Fix      string // heading of the error summary

	// AskedBy says who asks: {0} the server (Config.Name), {1} the tool.
	AskedBy string
	// AskedFor says which tool asks, when the server has no name: {0}.
	AskedFor string

	// Sent follows an answer a waiting call takes now; Kept one that no
	// call waits for, kept for the same call made again until {0};
	// KeptApproval the approval of a question with approvers, which takes
	// effect when {0}, who asked, makes the request again before {1};
	// Saved one the page cannot tell (its Store keeps no WaitMarker);
	// Continue one the person's client goes on with once they come back
	// to it (Question.ClientContinues).
	Continue     string
	Sent         string
	Kept         string
	KeptApproval string
	Saved        string
	Declined     string
	Answered     string
	Expired      string
	Invalid      string
	Foreign      string
	SignIn       string
	// Requester refuses the person who asked a question that leaves
	// them out (runtime.Approvers.ExcludeRequester); NotApprover anyone
	// else its policy does not admit; Again a second answer by the same
	// approver; Counted an approval short of the quorum: {0} approvals
	// so far of {1}.
	Requester   string
	NotApprover string
	Again       string
	Counted     string
	// RequestedBy names, on the page of a question with approvers, the
	// person whose call asks for the approval: {0}.
	RequestedBy string
	// Differs refuses an approval whose answer is not the first
	// approval's: every approval of a quorum approves one answer.
	Differs  string
	Store    string
	Stale    string // the CSRF check failed
	TooLarge string
	BadPost  string
	Method   string

	// Headings of the notices: after an answer, a refusal, a link that
	// does not open. Refused is the heading of every other notice, all
	// of which record nothing.
	SentHeading     string
	KeptHeading     string
	SavedHeading    string
	DeclinedHeading string
	AnsweredHeading string
	ExpiredHeading  string
	InvalidHeading  string
	ForeignHeading  string
	SignInHeading   string
	Refused         string

	// ClosesIn says when the page closes: {0} how long from now
	// (Minutes, Hours, Days...), {1} the time, written with ClosesAt (a
	// time.Format layout, in UTC).
	ClosesIn string
	ClosesAt string
	Soon     string // less than a minute
	Minute   string
	Minutes  string // {0}
	Hour     string
	Hours    string // {0}
	Day      string
	Days     string // {0}

	Date  string // hint of a date input
	Stamp string // hint of a date-time input
	Email string
	URI   string

	// How many choices a multi-select takes: {0} the least, {1} the
	// most.
	AtLeast string
	AtMost  string
	Between string
	Exactly string

	// ConfirmHint explains a box tagged confirm (Property.Confirm):
	// unticked, it declines.
	ConfirmHint string

	// Problems the page finds in a post before the form's rules do.
	NotNumber   string
	NotInteger  string
	Once        string
	TooLong     string
	BadBool     string
	Unconfirmed string // an accept with a box tagged confirm unticked

	// StepUp says, on the page of a question asked with
	// runtime.WithStepUp, that approving asks for a passkey; StepUpRefused
	// refuses an approval without a valid passkey assertion for it.
	StepUp        string
	StepUpRefused string
}

var texts = []text{{
	Lang:     "en",
	Title:    "Your answer is needed",
	Accept:   "Accept",
	Decline:  "Decline",
	Required: "(required)",
	Choose:   "Choose…",
	Fix:      "Please correct the following:",

	AskedBy:  "{0} asks this for its tool {1}.",
	AskedFor: "The tool {0} asks this.",

	Sent: "Thank you: your answer was sent. You can close this page.",
	Kept: "Your answer is saved, but nothing has been done yet: the request that asked for it is no longer waiting. " +
		"Go back to your assistant and ask it to make the same request again; that request uses your answer. " +
		"Your answer is kept until {0}. You can close this page.",
	KeptApproval: "Thank you: your answer is saved, but nothing has been done yet. " +
		"It takes effect when {0}, who asked for this action, makes the same request again, before {1}. You can close this page.",
	Continue: "Your answer is saved. Go back to your assistant and confirm there that you have answered: the request then goes on with your answer. You can close this page.",
	Saved: "Your answer is saved. If the request that asked for it is still waiting, it goes on now; " +
		"if not, nothing has been done yet: ask your assistant to make the same request again, and that request uses your answer. You can close this page.",
	Declined:    "You declined: nothing was sent. You can close this page.",
	Answered:    "This question has already been answered.",
	Expired:     "This link has expired.",
	Invalid:     "This link is not valid.",
	Foreign:     "This question was asked of someone else.",
	Requester:   "You asked for this action, so you cannot approve it yourself: someone else must answer. Your answer was not counted.",
	NotApprover: "You are not one of the people who may answer this question. Your answer was not counted.",
	Again:       "You have answered this question already: the same person counts once.",
	RequestedBy: "{0} asked for this action; you are asked to approve it.",
	Differs:     "Your answer differs from the approval already given: every approver must approve the same answer. Your answer was not counted; open the link again to answer.",
	Counted:     "Thank you: your approval is recorded ({0} of {1} approvals). The action waits for the others. You can close this page.",
	SignIn:      "Sign in to answer this question.",
	Store:       "Your answer could not be saved: please try again in a moment.",
	Stale:       "This form could not be checked: open the link again to answer.",
	TooLarge:    "This answer is too large.",
	BadPost:     "This is not an answer this page can read.",
	Method:      "This page takes answers only from its form.",

	SentHeading:     "Answer sent",
	KeptHeading:     "Answer saved, not used yet",
	SavedHeading:    "Answer saved",
	DeclinedHeading: "You declined",
	AnsweredHeading: "Already answered",
	ExpiredHeading:  "Link expired",
	InvalidHeading:  "Link not valid",
	ForeignHeading:  "Not your question",
	SignInHeading:   "Sign in to answer",
	Refused:         "Your answer was not counted",

	ClosesIn: "This page closes in {0}, at {1}.",
	ClosesAt: "15:04 MST on 2 January 2006",
	Soon:     "less than a minute",
	Minute:   "1 minute",
	Minutes:  "{0} minutes",
	Hour:     "1 hour",
	Hours:    "{0} hours",
	Day:      "1 day",
	Days:     "{0} days",

	Date:  "YYYY-MM-DD",
	Stamp: "A date and time, such as 2026-07-28T09:30:00Z",
	Email: "An email address",
	URI:   "A full web address, such as https://example.com/",

	AtLeast: "Choose at least {0}.",
	AtMost:  "Choose at most {1}.",
	Between: "Choose {0} to {1}.",
	Exactly: "Choose {0}.",

	ConfirmHint: "Tick this box to approve. Left unticked, your answer is a decline.",

	NotNumber:   "{field} must be a number",
	NotInteger:  "{field} must be a whole number",
	Once:        "{field} must be given once",
	TooLong:     "{field} is too long",
	BadBool:     "{field} must be ticked or left unticked",
	Unconfirmed: "{field} is not ticked: tick it to approve, or choose Decline (nothing was sent yet)",

	StepUp:        "Approving asks for your passkey: your device confirms it is you.",
	StepUpRefused: "Your passkey did not confirm this answer. Your answer was not counted; open the link again to answer.",
}, {
	Lang:     "ja",
	Title:    "ご回答をお願いします",
	Accept:   "回答する",
	Decline:  "辞退する",
	Required: "（必須）",
	Choose:   "選択してください",
	Fix:      "次の項目を修正してください:",

	AskedBy:  "{0} がツール {1} のために質問しています。",
	AskedFor: "ツール {0} からの質問です。",

	Sent: "ありがとうございます。回答を送信しました。このページは閉じてかまいません。",
	Kept: "回答を保存しましたが、まだ何も実行されていません。この回答を求めた依頼はもう待機していません。" +
		"アシスタントに戻り、同じ依頼をもう一度するよう伝えてください。その依頼であなたの回答が使われます。" +
		"回答は{0}まで保存されます。このページは閉じてかまいません。",
	KeptApproval: "ありがとうございます。回答を保存しましたが、まだ何も実行されていません。" +
		"この操作を依頼した {0} さんが{1}までに同じ依頼をもう一度すると、あなたの回答が使われます。このページは閉じてかまいません。",
	Continue: "回答を保存しました。アシスタントに戻り、回答したことをそこで確定してください。依頼はあなたの回答で続行されます。このページは閉じてかまいません。",
	Saved: "回答を保存しました。この回答を求めた依頼がまだ待機していれば、このまま続行されます。" +
		"待機していない場合はまだ何も実行されていません。アシスタントに同じ依頼をもう一度するよう伝えてください。その依頼であなたの回答が使われます。このページは閉じてかまいません。",
	Declined:    "辞退しました。何も送信されていません。このページは閉じてかまいません。",
	Answered:    "この質問にはすでに回答済みです。",
	Expired:     "このリンクは有効期限が切れています。",
	Invalid:     "このリンクは無効です。",
	Foreign:     "この質問は別の方に宛てたものです。",
	Requester:   "この操作を依頼したのはあなたなので、あなた自身は承認できません。別の方の回答が必要です。回答は反映されていません。",
	NotApprover: "あなたはこの質問に回答できる方に含まれていません。回答は反映されていません。",
	Again:       "この質問にはすでに回答済みです。同じ方の回答は一度だけ数えます。",
	RequestedBy: "{0} さんがこの操作を依頼しました。あなたの承認が求められています。",
	Differs:     "すでに承認された回答と内容が異なります。承認者は全員同じ回答を承認する必要があります。回答は反映されていません。リンクを開き直して回答してください。",
	Counted:     "ありがとうございます。承認を記録しました（{1} 件中 {0} 件）。ほかの方の承認を待っています。このページは閉じてかまいません。",
	SignIn:      "この質問に回答するにはサインインしてください。",
	Store:       "回答を保存できませんでした。しばらくしてからもう一度お試しください。",
	Stale:       "このフォームを確認できませんでした。リンクを開き直して回答してください。",
	TooLarge:    "回答が大きすぎます。",
	BadPost:     "このページでは読み取れない回答です。",
	Method:      "このページはフォームからの回答のみ受け付けます。",

	SentHeading:     "回答を送信しました",
	KeptHeading:     "回答を保存しました（未反映）",
	SavedHeading:    "回答を保存しました",
	DeclinedHeading: "辞退しました",
	AnsweredHeading: "回答済みです",
	ExpiredHeading:  "リンクの有効期限切れ",
	InvalidHeading:  "無効なリンク",
	ForeignHeading:  "別の方への質問です",
	SignInHeading:   "サインインが必要です",
	Refused:         "回答は反映されていません",

	ClosesIn: "このページはあと{0}で閉じます（{1}）。",
	ClosesAt: "2006年1月2日 15:04 MST",
	Soon:     "1分足らず",
	Minute:   "1分",
	Minutes:  "{0}分",
	Hour:     "1時間",
	Hours:    "{0}時間",
	Day:      "1日",
	Days:     "{0}日",

	Date:  "YYYY-MM-DD",
	Stamp: "日時（例: 2026-07-28T09:30:00Z）",
	Email: "メールアドレス",
	URI:   "完全なウェブアドレス（例: https://example.com/）",

	AtLeast: "{0}個以上選んでください。",
	AtMost:  "{1}個まで選んでください。",
	Between: "{0}〜{1}個選んでください。",
	Exactly: "{0}個選んでください。",

	ConfirmHint: "承認する場合はチェックを入れてください。チェックを入れないままの回答は辞退になります。",

	NotNumber:   "「{field}」には数値を入力してください",
	NotInteger:  "「{field}」には整数を入力してください",
	Once:        "「{field}」は一度だけ指定してください",
	TooLong:     "「{field}」が長すぎます",
	BadBool:     "「{field}」はチェックを入れるか外してください",
	Unconfirmed: "「{field}」にチェックが入っていません。承認する場合はチェックを入れ、しない場合は「辞退する」を選んでください（まだ何も送信されていません）",

	StepUp:        "承認にはパスキーが必要です。お使いのデバイスで本人確認を行います。",
	StepUpRefused: "パスキーでこの回答を確認できませんでした。回答は反映されていません。リンクを開き直して回答してください。",
}}

var textTags = func() []string {
	tags := make([]string, len(texts))
	for i := range texts {
		tags[i] = texts[i].Lang
	}
	return tags
}()

// textFor returns the page's wording for the first of prefs (language
// tags or Accept-Language lists; "" is skipped) that one serves: English
// when none does.
func textFor(prefs ...string) *text {
	for _, pref := range prefs {
		if pref == "" {
			continue
		}
		tag := runtime.MatchLanguage(pref, textTags...)
		for i := range texts {
			if texts[i].Lang == tag {
				return &texts[i]
			}
		}
	}
	return &texts[0]
}

// fill writes template s with field for {field} and args for {0}, {1},
// in one pass: a title or value that holds braces stays as it is.
func fill(s, field string, args ...string) string {
	var sb strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s[i+1:], '}')
		if i < 0 || j < 0 {
			sb.WriteString(s)
			return sb.String()
		}
		name := s[i+1 : i+1+j]
		sb.WriteString(s[:i])
		if n, err := strconv.Atoi(name); name == "field" || err == nil && n >= 0 && n < len(args) {
			if name == "field" {
				sb.WriteString(field)
			} else {
				sb.WriteString(args[n])
			}
		} else {
			sb.WriteString(s[i : i+j+2])
		}
		s = s[i+j+2:]
	}
}

// about writes the page's problem template tmpl about property pr, named
// by its title.
func (t *text) about(tmpl string, pr *runtime.Property) string {
	name := pr.Title
	if name == "" {
		name = pr.Name
	}
	return fill(tmpl, name)
}

// heading returns the heading of a notice that says say.
func (t *text) heading(say string) string {
	switch say {
	case t.Sent:
		return t.SentHeading
	case t.Declined:
		return t.DeclinedHeading
	case t.Answered:
		return t.AnsweredHeading
	case t.Expired:
		return t.ExpiredHeading
	case t.Invalid:
		return t.InvalidHeading
	case t.Foreign, t.Requester, t.NotApprover:
		return t.ForeignHeading
	case t.Again:
		return t.AnsweredHeading
	case t.SignIn:
		return t.SignInHeading
	}
	if i := strings.IndexByte(t.Counted, '{'); i > 0 && strings.HasPrefix(say, t.Counted[:i]) {
		return t.SentHeading
	}
	for _, tmpl := range []string{t.Kept, t.KeptApproval} {
		if i := strings.IndexByte(tmpl, '{'); i > 0 && strings.HasPrefix(say, tmpl[:i]) {
			return t.KeptHeading
		}
	}
	if say == t.Saved || say == t.Continue {
		return t.SavedHeading
	}
	return t.Refused
}

// asker says who asks: the server named name (none when "") for tool.
func (t *text) asker(name, tool string) string {
	switch {
	case tool == "":
		return ""
	case name == "":
		return fill(t.AskedFor, "", tool)
	}
	return fill(t.AskedBy, "", name, tool)
}

// closes says when a page that closes at at closes, seen at now: how
// long from now, and the time in UTC.
func (t *text) closes(at, now time.Time) string {
	return fill(t.ClosesIn, "", t.left(at.Sub(now)), at.UTC().Format(t.ClosesAt))
}

// left writes d, rounded down to whole minutes up to two hours, whole
// hours up to two days, whole days beyond.
func (t *text) left(d time.Duration) string {
	n := func(tmpl string, v time.Duration) string { return fill(tmpl, "", strconv.FormatInt(int64(v), 10)) }
	switch {
	case d < time.Minute:
		return t.Soon
	case d < 2*time.Minute:
		return t.Minute
	case d < 2*time.Hour:
		return n(t.Minutes, d/time.Minute)
	case d < 48*time.Hour:
		return n(t.Hours, d/time.Hour)
	}
	return n(t.Days, d/(24*time.Hour))
}

// countHint says how many choices a multi-select takes, "" when any
// number does.
func (t *text) countHint(pr *runtime.Property) string {
	lo, hi := pr.MinItems, pr.MaxItems
	var a, b string
	if lo != nil {
		a = strconv.Itoa(*lo)
	}
	if hi != nil {
		b = strconv.Itoa(*hi)
	}
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return fill(t.Exactly, "", a)
	case lo != nil && hi != nil:
		return fill(t.Between, "", a, b)
	case lo != nil && *lo > 0:
		return fill(t.AtLeast, "", a)
	case hi != nil:
		return fill(t.AtMost, "", a, b)
	}
	return ""
}
