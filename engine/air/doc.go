// Package air is the rules engine of Mission Command Air (rules "air/1"):
// squadrons of an F-35 and an F-22 dogfight on a looping board, steered by
// Navigation cards from one shared deck, firing missiles and cannons within
// their cones of fire. It implements [engine.Game] and has two bots,
// [NewRandomBot] and [NewStrongBot].
//
// # Variants
//
//   - "standard" (default): 2 players, Blue against Fire; with 3 or 4
//     players it is the free-for-all.
//   - "ffa": the 3-4 player free-for-all; the last squadron flying wins.
//   - "team": 4 players, Fire and Eagle against Blue and Tiger; the first
//     team to eliminate a squadron of the other wins.
//   - "maxdamage": planes cannot fly through each other; a plane that would
//     enter an occupied space stops before it and both planes roll four
//     black dice for damage. 2 to 4 players (free-for-all beyond two).
//
// Seats 0..3 fly the Blue, Fire, Eagle and Tiger squadrons. Plane ID 2·s is
// seat s's F-35 and 2·s+1 its F-22.
//
// # What the engine needs, in order
//
//  1. NeedShuffle{Name: "nav", Size: 60, Seats: all}: the shared deck is
//     shuffled by every seat (mental card play, package fairness/deck).
//     Input{Kind: NeedShuffle} (Seat is ignored).
//  2. Each round, for every seat with a plane, in seat order:
//     NeedDeal{Seat, Name: the current deck, Count} to refill the hand to
//     seven. Input.Cards must be exactly the next Count undealt positions
//     of that deck, in order (the engine tracks the draw pile publicly).
//     When the draw pile runs out, a NeedShuffle{Name: "nav/k", Size,
//     Seats: every seat flying, Open: the discard pile's slots} first makes a new deck of
//     the discard pile (house): its Open lists the old slots, whose numbers
//     are public, that make up the new deck in order.
//  3. NeedChoice{Seats: every seat with a plane and a card, Name:
//     "choice/<round>"}: each seat's [Choice] names one hand card per plane
//     flying. A bad choice is an *engine.Fault naming the seat.
//  4. NeedOpen{Seat, Open: the seat's chosen cards' slots
//     {NoSeat, deck name, position}}, for each choosing seat in order: the
//     value is the card number, one byte 1..60; the engine checks that the
//     deck still holds that number unrevealed.
//  5. The planes act in card-number order. On its turn the owner sends
//     NeedMoves ([Move]): "move" (the card's maneuver; black dice follow as
//     NeedRandom{Name: "r<round>/t<turn>/move", Count: dice, Bound: 6,
//     Seats: every seat flying, Seat: the mover}, then, for an F-35, a "bonus" move
//     taking or refusing +1), "wingman" (a wingman card's power), "disrupt"
//     (a disruption card's opponent move, black dice follow), "fire" (the
//     red dice follow, then, on a hit, the four black damage dice), and
//     "end" (hold fire). Moving is compulsory, firing optional, before or
//     after moving; the turn ends by itself once nothing is left to decide.
//     A collision in "maxdamage" rolls eight black dice: four for the mover,
//     four for the plane it ran into.
//
// No move opens a slot ([Game.MustOpen] returns none) and there is no Auto
// need. Every die is a joint roll of the seats still flying (a seat that
// lost both planes is out, [Game.Out], and contributes to nothing more); a value v in [0, 6) is the
// face BlackFaces[v] or RedFaces[v].
//
// # Numbers from DATA.md and house choices
//
// All of them live in house.go and cards.go:
//
//   - board 9 columns x 12 rows, looping on every edge; column x has edge
//     label 15+10x, row y label 10+10y, rows counted upward (so the
//     rulebook's (10,35) heading north, banking right 9 spaces, reaches
//     (70,95), loops to (80,15) and ends at (100,35));
//   - black dice 1,1,2,2,3,3; red dice 0,0,2,2,5,5;
//   - eight headings; a bank turns 45° and the plane flies along its new
//     heading, which it keeps;
//   - start spaces (house): Blue on the bottom row at columns 45 and 65
//     heading north, Fire on the top row at 65 and 45 heading south, Eagle
//     on the left edge at rows 70 and 60 heading east, Tiger on the right
//     edge at rows 60 and 70 heading west (F-35 first);
//   - cone of fire (house): the forward 90° wedge, rotated for diagonal
//     headings; cannons only on the straight-ahead line and the two forward
//     diagonals, missiles anywhere in it; distance in king moves; fire never
//     loops and is not blocked by planes (text);
//   - the 60 Navigation cards (house): see [NavCards];
//   - damage chart: 4 fuel tank, 5-6 tail, 7-9 wings, 10-11 engine (text),
//     12 cockpit; shot down at 2 tail, 2 engine, 1 fuel tank, 1 cockpit,
//     3 (F-35) or 4 (F-22) wing hits (text);
//   - an empty draw pile is refilled by shuffling the discard pile (house);
//     if both are empty a hand stays short;
//   - a wingman move puts the plane on an empty space next to its partner
//     (no looping) with the partner's heading (house);
//   - the F-35's +1 is chosen after its own move roll, and never applies
//     when an opponent moves it with a disruption card (house);
//   - a disruption card's two moves are both compulsory, in either order,
//     and its opponent move turns relative to the moved plane's heading
//     (house); any opposing plane may be chosen;
//   - a plane shot down before its turn loses it; its card goes to the
//     discard pile (house); a squadron that is out sets its hand aside
//     unrevealed (house);
//   - a player who leaves a free-for-all of three or four (Maximum Damage
//     beyond two players is one too: "use all the same rules as the
//     2-Player game", whose 3-4 player form is the free-for-all) is taken
//     off the table ([Game.Remove], leave.go) and the others play on, the
//     last player in the game winning (text), "last player standing"; its
//     planes leave the board, its hand and the rest of the draw pile
//     (masked under its key share) are set aside unrevealed, its plane's
//     turn ends and a shot at one of its planes comes to nothing (house).
//     In the team game a departure counts as its squadron eliminated
//     ([Game.ForfeitOutcome]);
//   - a match with no result after MaxRounds (200) rounds is a draw
//     (house); all planes of the last squadrons going down together in a
//     collision is a draw.
//
// # Cheats the engine rejects
//
//   - a card chosen that is not in the hand, twice, or for another plane:
//     Fault naming the seat (checkChoice);
//   - an opened card other than the one chosen, a number outside 1..60 or
//     one the deck no longer holds (reveal);
//   - a deal out of order (applyDeal), a roll with the wrong count or a
//     value out of range (applyRandom);
//   - a shot out of the cone, a cannon shot off the cannon lines, a missile
//     with none left, a second shot, fire at an own plane or a teammate
//     (checkMove), and any move at the wrong time or by the wrong seat.
package air
