// Package tuitest is for tests: it starts the whole interface (package tui)
// on a headless screen with test defaults, so that the tests of package tui
// and of the board views repeat none of it.
//
// [Start] fills a tui.Config with the defaults every such test wants
// ([Config]: offline, a temporary data folder, loopback only, seeded
// randomness, the colour theme) and runs the interface on a
// boardtest.Screen until the test ends; [Options] say what differs (the
// game by default, how long to wait). [HostAndJoin] starts two interfaces
// joined by the host's invite code, [TakeTurns] has them play, and
// [Forfeit] ends their match. [UI.Transcript], [Audit] and
// [UI.AuditCheat] reach the transcript a match wrote and its audit;
// [Prompt] and [Asks] read a match screen, and [UI.Capture] keeps screens
// for the record.
//
// It builds on package boardtest (which may not import package tui, so has
// none of this). Every helper that can fail takes a testing.TB or a UI,
// marks itself a helper and fails the test rather than panicking; all of
// it is safe for tests run in parallel. Import it from _test.go files only:
// package tui's own tests can use it only from the external package
// tui_test.
package tuitest
