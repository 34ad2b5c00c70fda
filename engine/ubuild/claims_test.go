package ubuild

import "testing"

// A ship's deferred "hit, not sunk" claims are settled when its weapon
// count opens, and every claim about it must be checked then, even when a
// claim about another ship, still hidden, was made before it. Skipping the
// rest of the list at the first claim about another ship would let the lie
// below pass (the mutation tester's ubuild-claims-after-other-ship).
func TestSettleClaimsChecksClaimsAfterOneAboutAnotherShip(t *testing.T) {
	m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{1, 4, 5, 5, 5}, 0)
	// Turn 1: seat 1's 4-weapon carrier is hit; the honest "hit, not sunk"
	// is kept as a deferred claim (true) while its count stays hidden.
	m.volley(0, Battleship, "C-4")
	m.volley(1, Destroyer, "B-1") // turn 2
	// Turn 3: seat 1 claims its 1-weapon battleship hit but not sunk: a lie,
	// deferred behind the claim about the carrier.
	m.fire(0, Battleship, "J-6")
	m.apply(m.moveIn(1, answerMove("J-6 hit battleship")))
	// Turn 4: the battleship fires and opens its count, which convicts it.
	m.reject(m.moveIn(1, fireMove(Battleship, "B-2")), 1, "turn 3: seat 1 claimed its Battleship hit but not sunk after 1 hits")
	// The claim about the carrier is still pending and true: the carrier
	// may fire without a fault.
	m.fire(1, Carrier, "B-2")
}
