package main

import "github.com/spf13/cobra"

// extraCommands lists the commands beyond generate, schema, check and
// version.
func extraCommands() []func() *cobra.Command {
	return []func() *cobra.Command{newDiffCmd, newDocsCmd, newLocaleCmd}
}
