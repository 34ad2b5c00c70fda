// Package cards is the pure rules engine of the Battleship Card Game with
// coordinate cards (rules "cards/1"), with a random and a strong bot.
//
// # The game
//
// Each of the two seats lays its 12 coordinate cards (five ships, seven
// misses) facedown in a 3 x 4 grid and plays from its own 26-card deck of
// destruction: white peg cards search the enemy grid, red peg cards damage
// revealed ships (or search, scoring immediate hits), power cards shield,
// repair, draw and play extra cards, and every revealed ship lends its owner
// a power until it sinks. Each turn a seat plays one card and reloads to five
// (seven while its Aircraft Carrier is revealed and afloat). Sinking all five
// enemy ships wins. Variant "beginner" removes the power cards and the ship
// powers.
//
// # Fairness mapping
//
// Nobody, the owner included, knows a grid or a deck order:
//
//   - Each seat commits "coords" (12 leaves, one byte: 0 miss, 1-5 a [Ship])
//     and "deck/1" (one byte per card, a [Face]) in any order (NeedCommit).
//   - The first player is a joint coin flip (NeedRandom "first", Bound 2);
//     both opening hands are one roll "deal" with Count 2.
//   - Tapping a facedown position (white peg, or red peg search) is a move
//     opening the played card; a NeedRandom "flip" then picks one of the
//     defender's coordinate leaves not yet placed, and a NeedOpen asks the
//     defender to open exactly that leaf.
//   - Every draw is a NeedRandom "draw" over the leaves left in the draw pile;
//     a k-card draw is one roll with Bound R·(R−1)·…·(R−k+1), decoded in mixed
//     radix. The public state tracks which leaves are drawn; the hand is a
//     list of [CardRef], whose faces only the owner's secrets hold.
//   - Playing a card is a move that names the card and claims its face
//     ([Move]); [Game.MustOpen] lists its leaf (and the discarded whites of
//     "Discard white peg cards"), and Apply checks the opened face against
//     the claim and the rules.
//   - When a draw finds the draw pile empty, the seat commits its (public)
//     discard pile as a fresh deck "deck/2", "deck/3", … (NeedCommit) whose
//     leaves must hold exactly that multiset.
//   - When play is decided, each seat opens every leaf still hidden
//     (NeedOpen) and the engine checks the grid and every deck multiset.
//
// Every opened value is counted against its commitment's multiset at once,
// so a stacked deck or an altered grid is an [*engine.Fault] naming the seat
// as soon as one face exceeds its count, and at the latest at the final
// reveal.
//
// # Numbers (DATA.md)
//
// Deck: 10 white, 6 one-peg, 3 two-peg, 1 four-peg red, 2 Shield, 2 "Discard
// white peg cards / Play 2 more cards", 2 "Repair a ship, then play a card /
// Draw 3 cards, then play one"; the beginner deck drops the 6 power cards.
// Hits to sink: Aircraft Carrier 5, Battleship 4, Destroyer 3, Submarine 3,
// PT Boat 2. A shield takes 2 pegs. All numbers live in house.go.
//
// # House choices
//
// DATA.md house rows and our own choices where the rules are silent:
//
//   - The first player is a joint coin flip (DATA.md), not the youngest.
//   - A white peg played with the Destroyer's power counts 1 hit (DATA.md),
//     also when it taps and reveals a ship, just as a red peg search scores
//     immediate hits.
//   - A white peg card may be played on a revealed Submarine (its power:
//     only white pegs damage it) even without a Destroyer.
//   - A red peg card played on a Submarine is discarded even when a shield
//     protects it; only white pegs hit a Submarine's shield.
//   - A ship carries at most one shield; the pegs that destroy a shield are
//     discarded with it. A peg card removed by a repair (PT Boat or repair
//     card) goes to the discard pile of the seat that played it.
//   - When a Destroyer sinks, its owner's white pegs in play are discarded
//     from ships and shields alike, except from a Submarine (and its shield).
//   - Ship powers are evaluated continuously: the Battleship bonus applies
//     to every red peg card of its owner in play (on ships and shields) while
//     it is revealed and afloat, and a ship or shield whose counted damage
//     reaches its strength is sunk or destroyed at once, whoever's input
//     caused it. If both fleets sink in the same step, the seat on turn wins.
//   - The PT Boat repair at the start of a turn may be declined (Skip); it
//     is asked for only when a revealed ship of the seat carries a peg card.
//   - "Play 2 more cards", "Repair … then play a card" and "Draw 3 … then play
//     one" add plays that must be made; a card with no legal use (a peg card
//     with no facedown card and no damageable ship, a Shield with no revealed
//     ship to carry it) may be discarded as a play (DiscardDead), and only then.
//   - "Draw 3": the next play must be one of the cards drawn; if none could be
//     drawn, that play is lost. A hand above the reload size is kept.
//   - The discard pile is reshuffled only when a draw finds the draw pile
//     empty; if the discard pile is empty too, the draw stops short.
//   - A match still running after [MaxTurns] turns is a draw.
//   - A single draw roll never has a Bound above 2^31−1; a larger draw is
//     split over several rolls.
//
// # Moves
//
// A [Move] is JSON (see [engine.EncodeMove]), for example
// {"action":"tap","card":{"deck":1,"leaf":7},"face":"white","pos":5} or
// {"action":"pt-repair","ship":"carrier","peg":1}. [Game.LegalMoves] lists
// the legal moves of a seat given its secrets.
package cards
