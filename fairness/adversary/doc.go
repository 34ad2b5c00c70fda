// Package adversary holds the permanent adversary suite of issue 12, in its
// tests only: honest matches of every game are played in-process once per
// test binary, then an adversary holding one player's key (or two, in
// colluding 3-4 player matches) and every public value rewrites its own
// record at random, and the joint audit of the result with the honest
// records must hold:
//
//   - it never names an honest player;
//   - it never gives the adversary a result that an honest record refutes
//     (the only results allowed are the honest one, or none: corrupt,
//     disputed, or a violation of the adversary);
//   - it never calls clean a record whose content differs from the honest
//     one.
//
// Every run prints its seed; a failure prints the seed, the match and the
// list of mutations, and `go test ./fairness/adversary -run X -seed N`
// replays it. The default run tries a fixed budget of mutated records;
// with -long it runs for -long-for (a few minutes).
package adversary
