// Package adversary holds the permanent adversary suite of issue 12, in its
// tests only: honest matches of every game are played in-process once per
// test binary, then an adversary holding one player's key (or two, in
// colluding 3-4 player matches) and every public value rewrites its own
// record at random, and the joint audit of the result with the honest
// records must hold:
//
//   - it never names an honest player;
//   - it never gives the adversary a result that an honest record refutes
//     (a result must be the one of every honest record that reaches one;
//     otherwise none: corrupt, disputed, or a violation of the adversary),
//     and never leaves standing a forfeit claim that an honest record
//     refutes with the claimant's own later messages;
//   - it never calls clean a record whose content differs from the honest
//     one.
//
// The honest matches are an in-process copy of real play: the games'
// strong bots on referees joined by fairnesstest's pipe (two players) or
// hub (three and four), all five games for two players, Air for three and
// four, and two matches in which a seat goes silent (each other seat then
// records its forfeit in its own name).
//
// Every run prints its seed. The mutations a record gets follow from the
// seed, but the matches do not (their salts and dice are truly random), so
// a failure prints the seed, the match, the adversary's seats and the list
// of mutations, and keeps the honest and rewritten records in a temporary
// directory: `salvo audit honest-seat0.jsonl forged1.jsonl` replays the
// joint audit. The default run tries a fixed budget of rewritten records
// (a few seconds once the matches are played; fewer under the race
// detector); -long runs for -long-for (3 minutes by default), and
// -without leaves mutation kinds out.
package adversary
