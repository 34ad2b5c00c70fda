// Package enginetest is for tests: it plays the referee's part honestly, in
// process, so that a game's own tests can play whole matches with agents
// without the cryptography of package fairness.
//
// A [Harness] keeps each seat's hidden values ([engine.Known]), asks the agents
// for their decisions, answers Auto needs through [engine.Answerer], opens
// slots from the opener's secrets, draws joint random values from a seeded
// source, and records every input it applies and every event the game
// reports. What a game needs beyond the common kinds (the shuffle and deal
// of a shared deck) is supplied through [Harness.Answers]; checks to run
// around every input through [Harness.BeforeApply] and [Harness.AfterApply].
//
// Commitment roots are stand-ins ([Root]): an engine only stores a root, and
// checking openings against it is the referee's job, tested in package
// fairness. Engines must import this package from their _test.go files
// only.
package enginetest
