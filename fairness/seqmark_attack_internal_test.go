package fairness

import "testing"

// A transport notes the number of every frame it reads before anything
// checks it (p2p/session's Reconnecting.read takes the "seq" of any JSON
// frame): a peer that streams frames numbered far ahead, each a number
// never filled in, must not make the mark hold one entry per frame for the
// rest of the match. The mark keeps only numbers a parallel group can put
// ahead of a gap; what it forgets only makes a resume ask for more.
func TestAttackSeqMarkFarAheadFlood(t *testing.T) {
	var s SeqMark
	s.See(1)
	for i := range uint64(100_000) {
		s.See(3 + 2*i) // never contiguous: every one is ahead of a gap
	}
	if len(s.ahead) > 64 {
		t.Fatalf("the mark holds %d numbers ahead of its gap, want at most 64", len(s.ahead))
	}
	if s.Top() != 1 {
		t.Fatalf("top %d, want 1", s.Top())
	}
	// An honest group's members still count once the gap fills.
	s.See(4)
	s.See(2)
	if s.Top() != 5 {
		t.Fatalf("top %d after the gap filled, want 5", s.Top())
	}
}
