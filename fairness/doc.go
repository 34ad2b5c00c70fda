// Package fairness lets players who do not trust each other play a game
// of hidden information and chance with no server: every peer can check,
// as the match goes and afterwards, that nobody looked at what was hidden,
// changed what was committed, biased the dice, or went back on a move.
//
// The engines (package engine) know only the rules; they hold no secrets
// and do no I/O. This package wraps one engine per peer with everything
// that makes the match trustworthy. Its ideas, from the smallest up:
//
//   - A commitment binds a seat to a hidden value without showing it: the
//     hash of the value with a fresh random salt, bound to its match, owner,
//     vector and index (LeafCommitment, Salt). Opening it later (Opening) shows the
//     value and the salt; anyone can recompute the hash. A seat commits a
//     whole vector at once (a grid, a hand) under one Merkle root (Vector,
//     VerifyPath), and opens leaves one by one as the rules call for them.
//   - Joint dice: nobody may pick a roll, not even the last to speak. Each
//     seat commits the tip of a hash chain at the start (Chain); every roll
//     takes each contributor's next preimage, checked against its previous
//     link, and derives the values from all of them (RollValues). A seat
//     that does not like the roll can only refuse to go on, which forfeits.
//   - Mental cards: a deck shared by several seats is shuffled and dealt
//     with nobody, dealer included, knowing more than their own cards
//     (package fairness/deck; shared.go drives it from the match).
//   - The signed chain: every message is an Envelope, signed by its sender's
//     libp2p identity key, numbered, and naming the hash of the message
//     before it. The match is strictly sequential (one seat may send at
//     each step), so every peer sees the same messages in the same order,
//     and each signature covers the whole history before it.
//   - The referee (Referee) drives one seat of a match: it asks the local
//     agent for decisions, keeps the seat's secrets, produces openings and
//     dice preimages, signs what it sends, and checks everything that
//     arrives (Match.Accept) before the engine sees it. The first failure
//     stops the match with a signed closing record (Closing) and the
//     offending message kept as evidence. Each note of its verification
//     log (Note) says what happened, in a closed vocabulary (Dir).
//   - The transcript (TranscriptWriter) is the match on disk, one JSON line
//     per message, synced before the match moves on.
//   - The audit (Audit) replays a transcript through the same checks with
//     no seat of its own, and names the cheater and the message if there
//     is one; the joint audit (AuditJoint) holds several players' records
//     of one match side by side, where more can be proved.
//
// The wire format is in docs/PROTOCOL.md, the design in
// docs/ARCHITECTURE.md, and what each check defends against in
// docs/THREAT-MODEL.md. The cheats the checks are tested against live in
// fairness/cheat, which this package does not import.
package fairness
