package page

// extra holds the page's words for the inbox and one-time links, by the
// language of the text they go with (text.Lang).
type extra struct {
	// Used refuses a one-time link opened a second time.
	Used string
	// Inbox is the inbox's heading and <title>; Empty says it lists
	// nothing; Intro says what it lists.
	Inbox, Empty, Intro string
	// Columns of the inbox: the tool, who asks, what is asked, when it
	// closes, approvals still needed.
	Tool, Requester, Asked, Closes, Needed string
	// Open is the text of each row's link to its page.
	Open string
}

var extras = map[string]*extra{
	"en": {
		Used:      "This link was used already. Open the question from your inbox, or ask for a new link.",
		Inbox:     "Questions waiting for you",
		Empty:     "Nothing is waiting for your answer.",
		Intro:     "These questions need your answer before the action they ask about can go ahead.",
		Tool:      "Tool",
		Requester: "Requested by",
		Asked:     "Question",
		Closes:    "Closes",
		Needed:    "Approvals still needed",
		Open:      "Answer",
	},
	"ja": {
		Used:      "このリンクはすでに使われています。受信箱から質問を開くか、新しいリンクを依頼してください。",
		Inbox:     "あなたの回答を待っている質問",
		Empty:     "回答を待っている質問はありません。",
		Intro:     "これらの質問は、あなたが回答するまで操作が進みません。",
		Tool:      "ツール",
		Requester: "依頼者",
		Asked:     "質問",
		Closes:    "締め切り",
		Needed:    "あと必要な承認数",
		Open:      "回答する",
	},
}

// extraFor returns the extra words that go with t.
func extraFor(t *text) *extra {
	if e, ok := extras[t.Lang]; ok {
		return e
	}
	return extras["en"]
}
