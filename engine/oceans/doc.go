// Package oceans is the rules engine of the Battleship Card Game played with
// ocean cards (Hasbro, 2002), for two seats, with its bots.
//
// # The game
//
// Five oceans lie between the players, each with an identical 36-card fleet
// deck. Player #1 (a joint coin flip) draws six cards and player #2 five;
// they deploy three and two cards faceup, alternately, then player #2 takes
// the first turn. A turn is: draw two cards; play a card (facedown to a
// task force of at most five cards in any ocean, or faceup to the discard
// pile to issue its special command); then play a second card or attack. An
// attack needs a fleet (all cards in one's task forces) of at least twice
// the oceans still in play, and an opposing task force in that ocean; a
// player whose task forces are all full must attack, and may then attack an
// ocean the opponent has left empty. In battle both task forces are
// revealed, zero-valued cards (Minefield, Depth Charges) are played
// alternately from the defender, then the totals are compared: the higher
// wins the ocean, a tie goes to the defender, and when no card stands on
// either side nobody wins and the ocean stays. Three oceans win at once; a
// player who draws its last card finishes the turn and the match ends: most
// oceans wins, and a tie loses for that player.
//
// # Fairness mapping
//
// Each seat commits "fleet": 36 leaves, one card each ([EncodeCard]: one
// byte, the [Card] number), in an order only it knows. Every draw is a
// NeedRandom over the leaves still in the draw pile (tracked publicly in
// ascending order); several cards at once are one value below
// R·(R−1)·…·(R−k+1), read in mixed radix, least significant digit first
// (base R picks among the R remaining leaves, then base R−1, …). A deck of
// two cards or fewer is drawn without a roll. A facedown card is the drawn
// leaf itself ([Place] names it and opens nothing); faceup deployments and
// discards open their leaf with the move ([Game.MustOpen]); a Carrier's or
// Fighter Plane's reveal and a battle's reveal are NeedOpens naming exactly
// the facedown leaves concerned (attacker first). A revealed card is never
// opened again. At the end both seats open every leaf they have not opened
// (seat 0, then seat 1) and the engine checks each deck against the deck
// list; [Game.Outcome] is Done only after that. An opened card that is no
// fleet card, one more copy of a card than the deck holds, or an Element of
// Surprise found in a task force is an [*engine.Fault] naming its owner.
// There are no Auto needs: the engine resolves every step that needs no
// decision itself.
//
// # House values and choices
//
// The numbers live in house.go. From shared/rules/DATA.md: the ocean names
// (North Atlantic from the text); the deck (Battleship 4, Aircraft Carrier
// 4, Fighter Plane 6, Submarine 5, Destroyer 5, PT Boat 4, Minefield 3,
// Depth Charges 2, Element of Surprise 3); the values of Battleship (4),
// Destroyer (2) and PT Boat (1); the special commands (Carrier: reveal up to
// 2 facedown cards of one opposing task force; Fighter Plane: reveal 1;
// Submarine: destroy a revealed opposing Destroyer or PT Boat; Destroyer:
// destroy a revealed opposing Submarine; PT Boat: blockade one ocean for the
// opponent's next turn; Element of Surprise: on its next turn the opponent
// may not attack nor play a second card; Battleship, Minefield, Depth
// Charges: none); Depth Charges destroy every opposing Submarine, attacking
// or defending; a forced attack on an empty ocean faces a total of 0.
//
// Choices of this package where the rules are silent:
//   - A Minefield destroys a surface ship: Battleship, Carrier, Destroyer or
//     PT Boat. The Fighter Plane is an aircraft and the zero-valued cards are
//     not ships. With no surface ship to hit, the Minefield is wasted.
//   - One Carrier makes every Fighter Plane in its task force worth 3.
//   - Any card may be discarded. A command's targets may be left out (the
//     command is wasted); a PT Boat always names an ocean in play. Two PT
//     Boats blockade two oceans; a blockade stops only cards added to that
//     ocean.
//   - "Must attack" is judged after the first card of the turn: every task
//     force in play full (and at least one). It replaces the fleet-size
//     condition, forbids a second card, and allows any ocean holding one of
//     the player's task forces. The Element of Surprise overrides it: the
//     turn simply ends after one card.
//   - A battle decision among cards of one kind only (two Minefields, a
//     single surface ship) is no decision: the engine takes the first such
//     card in task-force order. The other decisions are NeedMoves of the
//     seat that makes them ([Zero], [Target]).
//   - After a battle, both task forces go to their owners' discard piles in
//     play order, the cards destroyed in the battle included.
//   - A player with no card to play (which the rules never allow to happen)
//     passes.
//
// # Bots
//
// [NewRandomBot] picks uniformly among [Game.Moves]. [NewStrongBot]
// estimates, ocean by ocean, its chance of winning a battle by sampling the
// opponent's facedown cards from the cards it has not seen and playing each
// sampled battle out, plays and commands to raise the chances of the oceans
// it still needs, attacks when the chance is good, and solves revealed
// battles exactly.
package oceans
