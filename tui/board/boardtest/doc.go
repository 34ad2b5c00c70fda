// Package boardtest is for tests: it holds the machinery the board views'
// tests share, so that each view package keeps only what is its own game's.
//
// Three layers, each usable alone:
//
//   - A single view drawn and driven by hand: [Env] is the seeded
//     environment to build a view with, [Render] and [RenderText] draw a
//     primitive on a fresh simulation screen, [Press] and [Mouse] send it
//     keys and mouse events, [Fixture] keeps a view on one screen for a
//     whole test, [Text] turns any simulation screen into text, and [Mono]
//     fails a test when a monochrome screen has a coloured cell.
//   - An honest referee: [Own], [Open] and [Roll] are its bookkeeping for
//     any game, [Table] plays a whole commitment game with bots, and
//     [Show], [Ask] and [Answer] hand a view the game's current need as the
//     match screen would and read back its decision. (Package
//     engine/enginetest does the same for the engines' own tests.)
//   - The whole interface on a headless screen: [Screen] copies every frame
//     on the drawing goroutine, [Term] sends keys and clicks and waits
//     (polling, with a timeout, dumping the screen on failure) for what a
//     test expects, [Start] runs any application ([App]) on a [Screen] and
//     stops it when the test ends, and [Alternate] takes turns between
//     several interfaces at one table.
//
// The package does not import package tui (which imports the views): a
// test builds its tui.App itself and hands it to [Start]. Every helper that
// can fail takes a testing.TB, marks itself with t.Helper and fails the test
// rather than panicking; all of it is safe for tests run in parallel.
// View packages must import this package from their _test.go files only.
package boardtest
