// Package boardtest is for tests: it holds the machinery the board views'
// tests share, so that each view package keeps only what is its own game's.
//
// Three layers, each usable alone:
//
//   - A single view drawn and driven by hand: [Render] draws a primitive on
//     a fresh simulation screen, [Press] and [Mouse] send it keys and
//     mouse events, [Fixture] keeps a view on one screen for a whole test,
//     and [Text] turns any simulation screen into text.
//   - An honest referee's bookkeeping for commitment games: [Own], [Open],
//     [Roll], and [Show], [Ask] and [Answer] to hand a view the game's
//     current need as the match screen would and read back its decision.
//   - The whole interface on a headless screen: [Screen] copies every frame
//     on the drawing goroutine, [Term] sends keys and clicks and waits
//     (polling, with a timeout, dumping the screen on failure) for what a
//     test expects, and [Start] runs any application ([App]) on a [Screen]
//     and stops it when the test ends.
//
// The package does not import package tui (which imports the views): a
// test builds its tui.App itself and hands it to [Start]. Every helper that
// can fail takes a testing.TB, marks itself with t.Helper and fails the test
// rather than panicking; all of it is safe for tests run in parallel.
// View packages must import this package from their _test.go files only.
package boardtest
