// Package gclplugin makes ccvet a golangci-lint module plugin: importing it
// registers a linter named "ccvet" that runs the analyzers of
// [github.com/ccvet/ccvet/analyzer.Suite]. See
// https://golangci-lint.run/plugins/module-plugins/ for module plugins.
//
// # Building a golangci-lint that includes ccvet
//
// golangci-lint has no way to load a module plugin at run time: "golangci-lint
// custom" builds a new binary from golangci-lint's source with the plugin
// packages imported. Its configuration is a .custom-gcl.yml file:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/ccvet/ccvet
//	    import: github.com/ccvet/ccvet/gclplugin
//	    path: ../ccvet  # a clone of ccvet; or version: with a released version
//
// "golangci-lint custom" then writes the binary custom-gcl. ccvet pins
// golang.org/x/tools and its other shared dependencies to the versions that
// golangci-lint v2.15.0 requires, so adding ccvet changes no version that
// golangci-lint was tested with.
//
// # Enabling the linter
//
// The linter is enabled like any other, and declared as a module plugin in
// the custom linters' settings of .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - ccvet
//	  settings:
//	    custom:
//	      ccvet:
//	        type: module
//	        description: checks that //sync:tag protocol loops are communication-closed
//	        original-url: github.com/ccvet/ccvet
//	        settings:
//	          disable: [syncjump]
//
// Complete example files are in the directory example of this package.
//
// # Settings
//
// The settings decode into [Settings] and select the analyzers to run:
//
//   - enable: the names of the analyzers to run; the others do not run. By
//     default (no enable list) every analyzer that is not advisory runs.
//   - disable: the names of analyzers not to run.
//   - advisory: also run the advisory analyzers, which report possible
//     problems rather than violations of the four conditions and so are off
//     by default. ccvet has none at present: the setting is accepted so that
//     configurations stay valid when one is added.
//
// This follows the standalone command, where "ccvet -syncmono ./..." runs
// only syncmono and "ccvet -syncmono=false ./..." runs all but syncmono.
// An unknown key, an unknown analyzer name, a name that is both enabled and
// disabled, or settings that select no analyzer at all make golangci-lint
// stop with an error that says which.
//
// An analyzer that does not run may still be computed as a prerequisite of
// one that does (syncdirective requires the four condition analyzers, to
// know which //sync:ignore directives they used), but golangci-lint reports
// only the findings of the analyzers selected.
//
// # Findings and suppression
//
// golangci-lint reports every finding under the linter name ccvet, with the
// analyzer's name before the message. It makes each related position of a
// finding (where the tag was set, the //sync:msg used, ...) an issue of its
// own, placed at the finding itself when the position is in another file:
//
//	proc/proc.go:11:3: syncsend(related information): ballot set here (ccvet)
//	proc/proc.go:13:17: syncsend: msgs.Msg sent with Ballot from before ballot was set at line 11 (...) (ccvet)
//
// A finding is best suppressed by ccvet's own //sync:ignore directive, which
// removes it with its related positions, and which syncdirective reports
// once it suppresses nothing. golangci-lint's //nolint:ccvet comment
// suppresses the issues of its own line only: on line 13 above, it leaves
// the related-information issue of line 11.
package gclplugin
