package app

import (
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
)

// deployMessage is the question of deploy_to_production in the user's
// language. The form's titles, descriptions and option titles come from
// forms/elicit.ja.json; the message is the handler's own text, so the
// handler picks it from the same preference (the request's SEP-2792
// acceptLanguage, which the adapter hands over with the asker).
func deployMessage(ask runtime.Asker, service, branch string) string {
	if runtime.MatchLanguage(runtime.LanguagePreference(ask), "en", "ja") == "ja" {
		return fmt.Sprintf("%s をデプロイしますか? 現在のブランチは %s です。", service, branch)
	}
	return fmt.Sprintf("Deploy %s? It is on branch %s.", service, branch)
}
