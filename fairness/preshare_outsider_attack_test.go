package fairness

import (
	"bytes"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// A pre-share names no seat's turn, so nothing but the seat it comes from
// says whose chain it extends. The live referee and the audit check the
// sender of every message first (a stranger's is refused before its
// inputs), but a replay that only stages inputs does not: the flight
// counter (CountFlights) and the TUI's replay screen, which names each
// input of a record by what the match asked for, stage every message of
// a record as it stands, a stranger's included (its seat is
// engine.NoSeat). A pre-share there must be refused, not index the
// pending pre-shares and the dice chains with seat -1 (a panic that ends
// the replaying process, from a record anyone can write).
func TestAttackPreshareFromAStrangerInAReplay(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	for _, seat := range []engine.Seat{engine.NoSeat, 2} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("a pre-share staged for seat %d panics: %v", seat, r)
				}
			}()
			if _, err := tb.m.Stage(seat, tb.preAt(1, 2)); err == nil {
				t.Fatalf("a pre-share staged for seat %d was taken", seat)
			}
		}()
	}
	// The same as a record: a stranger signs a pre-share after the
	// hellos, where the match waits for seat 0's share.
	stranger := testKeys(t, 3)[2]
	e, err := tb.m.Draft([]WireInput{tb.preAt(1, 2)}, tb.m.StateHash(), stranger)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	hb, err := marshalCompact(tb.h)
	if err != nil {
		t.Fatal(err)
	}
	buf.Write(append(hb, '\n'))
	for _, x := range append(tb.envs, e) {
		b, err := EncodeEnvelope(x)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("counting the flights of a record with a stranger's pre-share panics: %v", r)
		}
	}()
	if _, err := CountFlights(&buf, rollsSpecs); err == nil {
		t.Fatal("the flights of a record with a stranger's pre-share were counted")
	}
}
