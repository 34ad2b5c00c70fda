// Package sea is the rules engine of Mission Command Sea (Hasbro, 2003) for
// two players: a pure engine.Game with its bots.
//
// # A match as the engine sees it
//
// Setup: each seat commits its eight fighter strengths (NeedCommit
// "strengths", leaf i = fighter i's strength, one ASCII digit); a joint roll
// "order" gives one die to each seat (the lower roll places first and plays
// first; a tie rolls again); then the seats alternate placing their pieces,
// one at a time, in the order carrier, destroyer, destroyer, shallow,
// shallow (NeedMove "place").
//
// A turn of the active seat is the rulebook's six steps:
//
//  1. Every Harpoon of the seat in the water moves: "harpoon" (which one,
//     when there are several), a roll "harpoon", then "harpoon/path". A
//     Harpoon that hits nothing is removed.
//  2. "return" (fighters flying back to the deck, one die fewer each), a
//     roll "scramble" of 4 - returns dice, "scramble" (one flight per die
//     used), then one NeedCommit "load/<n>" (one leaf, "S" or "H") for each
//     fighter that took off.
//  3. "destroyers": each destroyer moves or fires once (rolls "fire"),
//     until the seat is done.
//  4. "defense": the other seat's destroyers may each fire once (rolls
//     "defense").
//  5. Dogfights, until no fighters of the two seats are adjacent: the
//     defender (the other seat) picks its fighter ("dogfight/defender"),
//     the attacker its fighter next to it ("dogfight/attacker"), each
//     strength is opened (NeedOpen "strength") unless already public, the
//     defender rolls its strength in dice ("dogfight"), may launch its
//     Sidewinder ("sidewinder", maybe a roll "reroll"; asked whenever the
//     fighter carries a missile, since only its owner knows which kind),
//     then the attacker does the same.
//  6. "launch": a fighter launches its Harpoon (the move opens the missile),
//     a roll "launch", then "launch/path".
//
// A hit on an undamaged carrier rolls "damage" (acted on by the attacker)
// and the carrier's owner removes that many fighters from its deck
// ("damage", a NeedMove of the owner) unless the roll clears the deck. A
// choice with a single candidate, and a step with nothing to decide, is
// skipped by the engine. Every die is a NeedRandom with Bound 6 whose Seat
// is the seat acting on it. When the match is decided, NeedOpen "reveal"
// opens every remaining secret of seat 0, then of seat 1, and the engine
// checks the strengths against the squadron and each missile leaf; a bad
// reveal is an *engine.Fault naming the seat.
//
// Moves are JSON (see Move): cells are written "C7" (column letter A-L,
// row 1-16), directions "N", "NE", ... "NW".
//
// # Values (DATA.md) and house choices
//
// From DATA.md (house rows): a 12 x 16 board, rows 1-8 seat 0's half and
// 9-16 seat 1's; 8 neighbours and king-move distances; a shallow is a 2 x 2
// block with one island (no-fly, no ships, no Harpoons, blocks fire); a
// line of fire is blocked when the segment between the centres of the
// destroyer's and the target's nearest spaces crosses a shallow space;
// strengths two 2s, four 3s, two 4s; a carrier lies straight, its bow the
// numbered end, the launch space in front of the bow; a destroyer is 2
// spaces with 8 facings, each step moving its bow straight ahead or 45
// degrees to either side, at most two steps; a Harpoon starts on its
// fighter's space, hits the enemy ship it enters and stops, and never
// enters its own side's ships.
//
// Added by this package (constants in house.go):
//   - Placement order carrier, destroyer, destroyer, shallow, shallow, the
//     seats alternating piece by piece.
//   - "Surrounded by unoccupied water" treats the board edge as water;
//     carriers and destroyers are placed wholly on their own half; the
//     carrier's launch space must be on the board; a shallow may not cover
//     any carrier's launch space, a ship, or another shallow.
//   - A destroyer may fire only at a target within FireRange (5) spaces,
//     since nothing farther can be hit; with several nearest pairs of
//     spaces, one clear line of fire suffices. Its moves pass under
//     fighters but must end off them, never enter a Harpoon's space, and
//     keep one space of open water from every other ship at the end.
//   - Dogfight pairing: the defender chooses its fighter (any of its
//     fighters next to an enemy fighter), then the attacker chooses among
//     its fighters next to that one.
//   - Returning fighters are declared at the start of step 2, just before
//     the scramble roll (nothing in step 1 depends on them); a returned
//     fighter's unused missile stays committed and is revealed at the end.
//   - A Harpoon moving in step 1 need not end on an empty space (it is
//     removed unless it hits); a launched Harpoon that hits nothing must,
//     and if no space or ship is reachable with the roll it returns to the
//     depot unused.
//   - A carrier hit when no planes are on its deck needs no damage roll.
//   - The match ends when a seat has no fighter (in flight or on deck), no
//     destroyer and no Harpoon in the water while the other seat still has a
//     fighter or a destroyer: the other seat wins. When both seats have lost
//     every fighter and destroyer (a tied last dogfight), the two end
//     sentences meet; the reading that follows both (DATA.md, house): the
//     Harpoons still in the water finish their moves first, on their
//     owners' turns (a hit may still damage or sink a carrier), then the
//     undamaged carrier wins, otherwise a tie. See checkEnd.
//   - MaxTurns (400 turns, both seats counted) ends a match that is still
//     going as if both fleets were destroyed.
//
// # Bots
//
// NewRandomBot plays uniformly random legal decisions; NewStrongBot plays to
// win (see its documentation). Both implement engine.Agent and read their
// own secrets only through engine.Secrets.
package sea
