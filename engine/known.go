package engine

import "maps"

// Known is a set of hidden values someone knows (a seat, a viewer, a test's
// referee): the leaves it committed and whatever else it has been shown,
// such as the cards of a shared deck dealt to it. It implements [Secrets].
type Known map[Slot][]byte

// Value returns a copy of the known value of s, so that the caller may keep
// or change it without touching k.
func (k Known) Value(s Slot) ([]byte, bool) {
	v, ok := k[s]
	return append([]byte(nil), v...), ok
}

// Clone returns an independent copy.
func (k Known) Clone() Known {
	out := make(Known, len(k))
	for s, v := range k {
		out[s] = append([]byte(nil), v...)
	}
	return out
}

// Add records copies of the leaves of a vector committed by owner under
// name.
func (k Known) Add(owner Seat, name string, leaves [][]byte) {
	for i, v := range leaves {
		k[Slot{Owner: owner, Name: name, Index: i}] = append([]byte(nil), v...)
	}
}

// Merge copies every value of o into k.
func (k Known) Merge(o map[Slot][]byte) { maps.Copy(k, o) }
