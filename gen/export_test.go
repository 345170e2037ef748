package gen

import "strings"

// What only the tests of package gen_test use.

var (
	Leftovers        = leftovers
	SourceURL        = sourceURL
	UnifiedDiffLimit = unifiedDiffLimit
)

// UnifiedDiff is unifiedDiffLimit without a limit.
func UnifiedDiff(nameA, nameB, a, b string) string {
	return unifiedDiffLimit(nameA, nameB, a, b, 0)
}

// ClientLimitsMarkdown returns the table of known client limits as the
// README shows it: a line with the day it was checked, then a Markdown
// table, one row per limit.
func ClientLimitsMarkdown() string {
	var b strings.Builder
	b.WriteString("Checked on " + ClientLimitsReviewed + ".\n\n")
	b.WriteString("| Client | Limit | Seen in | Sources |\n| --- | --- | --- | --- |\n")
	for _, l := range ClientLimits() {
		b.WriteString("| " + mdText(l.Client) + " | " + mdText(l.Limit) + " | " + mdText(l.Version) + " | " + sourceLinks(l.Sources) + " |\n")
	}
	return b.String()
}
