// Package ubuild is the rules engine of Battleship U-Build, with its bots.
//
// Two seats each hide a fleet of five ships on a 10x10 grid (rows A-J,
// columns 1-10; "C-2" is row C, column 2). Ships, in their fixed order:
// Battleship 5, Aircraft Carrier 4, Destroyer 3, Submarine 3, PT Boat 2 (the
// number is the locator plate: the ship's length and the hits that sink it).
// On a turn the attacker names one of its afloat ships and fires one shot per
// weapon still on it; the defender answers each shot with miss, hit or sunk
// and names the ship hit. Every hit removes one weapon of the ship hit; a ship
// sinks when its hits reach min(plate, starting weapons). The first seat to
// sink the whole enemy fleet wins.
//
// # Variants
//
//   - "standard" (the default): weapons equal plate numbers (5, 4, 3, 3, 2).
//   - "custom": each seat builds its ships with 1..10 weapons each and
//     20 in all; "custom-17", "custom-18" and "custom-19" are the same game
//     with that many weapons a fleet (the host's choice, [CustomVariant],
//     [FleetTotal]; "custom-17" is the standard weapons moved around); the
//     counts are hidden (committed at setup as the
//     vector "weapons") and a ship's count is opened the first time it fires
//     or when it is claimed sunk.
//   - "classic": standard weapons, but exactly one shot per turn and no ship
//     is named.
//
// # How a match runs on the engine contract
//
//  1. NeedCommit "grid" (100 leaves, one byte per cell: 0 water, 1..5 ship
//     index+1) for seat 0 then seat 1; in custom each grid is followed by
//     NeedCommit "weapons" (5 leaves, one byte 1..10).
//  2. NeedRandom "first player" (Bound 2): that seat attacks first.
//  3. NeedMove by the attacker: a [Fire] move. In custom, [Game.MustOpen]
//     adds the weapons slot of a ship that fires for the first time.
//  4. NeedMove by the defender, Auto, opening the grid cell of every shot: an
//     [Answer] move ([Game.Answer] writes the honest one). A "sunk" claim in
//     custom also opens that ship's weapons; a "hit, not sunk" claim while the
//     weapons are hidden is a deferred check, settled when they open.
//  5. When a fleet is sunk, NeedOpen for seat 0 then seat 1 reveals every
//     remaining slot; the engine checks each layout, the weapon counts and
//     the deferred checks (an [*engine.Fault] naming the seat on failure),
//     and the match ends: "sank the whole fleet".
//
// # Checks and blame
//
// Every input that breaks a rule is rejected by Apply with an error wrapping
// [engine.ErrIllegal] and leaves the state (and Hash) unchanged: a volley
// with too many shots, a sunk or unknown ship, a coordinate called before or
// twice; an answer with a missing, extra or reordered result, a miss on a
// ship cell, a hit or sunk on water, the wrong ship, sunk claimed too early
// or not claimed at min(plate, weapons), a hit-not-sunk at the plate number;
// openings missing, duplicated, not asked for or malformed; opened cells of
// one ship that fit no straight placement; opened weapon counts out of range
// or unable to total the fleet's weapons. A check that convicts a seat other than the sender
// (a deferred custom claim, the final reveal) is an [*engine.Fault] naming
// that seat, and names the turn of a false claim.
//
// # Events
//
// Apply reports events with these kinds: "commit", "first", "fire", "miss",
// "hit", "sunk" (one per shot, Seat = the defender), "fleet sunk" (Seat =
// the winner), "reveal" and "win".
//
// # Views and bots
//
// Besides the contract, [Game] offers read-only views for the UI: [Game.Variant],
// [Game.Phase], [Game.Turn], [Game.Attacker], [Game.FirstPlayer],
// [Game.Winner], [Game.Received] (the shots each seat's grid received),
// [Game.Opened], [Game.Fleet] (hits, sunk, weapons once opened),
// [Game.ShipsLeft], [Game.LastVolley], [Game.Targets], [Game.CanTarget] and
// [Game.ShotsAllowed]. [RandomLayout], [Layout], [LayoutFromCells],
// [LayoutFromSecrets] and [RandomWeapons] build and read fleets.
// [NewRandomBot] plays uniformly at random; [NewHunterBot] is the strong bot
// (probability density over the positions each ship can still take).
//
// # House choices
//
// Every value the rulebook leaves open is a constant in house.go:
//
//   - the grid and coordinate text (DATA.md, house): rows A-J, columns 1-10,
//     printed "C-2"; "C2", lower case and "C-10" are accepted;
//   - calling a coordinate already called is not allowed (DATA.md, house);
//   - classic variant: standard weapons, one shot per turn (DATA.md, house);
//   - custom fleets: each ship [MinWeapons]..[MaxWeapons] (text); both
//     fleets the same total (text: "both players must have the same number
//     of weapons per fleet"), which the host sets with the variant, from
//     [MinFleetWeapons] = 17 (the standard fleet; the spares are added "to
//     make your ships more powerful") to [MaxFleetWeapons] = 20 (the box's
//     spares, DATA.md inferred). The total is a variant, not a choice of
//     each seat, because the counts are hidden until fired: a seat could
//     not otherwise learn the totals differ before the end, nor be blamed
//     for it. "custom" keeps its name for 20, so earlier transcripts audit;
//   - a custom fleet starts from [StandardBuild]: the standard counts and
//     the spares one each on the biggest ships, legal at every total;
//   - a shot on a cell of an already sunk ship (possible in custom, where a
//     ship can sink before every cell is hit) is answered "hit" with the ship
//     and changes nothing (brief);
//   - the first player is a joint coin flip (NeedRandom, Bound 2);
//   - the engine checks early what it can: an opened weapon count out of
//     range, weapon counts that can no longer total the fleet's, and the opened cells of
//     one ship that no straight placement of its plate length can cover are
//     rejected at once, not only at the final reveal.
//
// The hunter bot's own choices (its custom weapon build, its layout
// spacing, its volley damping, small-ship bias and hunting lattice) are
// constants in hunter.go.
package ubuild
