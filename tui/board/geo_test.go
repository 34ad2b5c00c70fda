package board

import "testing"

func TestRectHit(t *testing.T) {
	r := Rect{X: 2, Y: 3, W: 4, H: 1}
	for _, c := range []struct {
		x, y int
		in   bool
	}{{2, 3, true}, {5, 3, true}, {6, 3, false}, {1, 3, false}, {2, 4, false}, {2, 2, false}} {
		if r.Has(c.x, c.y) != c.in {
			t.Errorf("Has(%d, %d) = %v", c.x, c.y, !c.in)
		}
	}
	if (Rect{X: 2, Y: 3, H: 1}).Has(2, 3) {
		t.Error("a rectangle of no width has a cell")
	}
	rs := []Rect{{}, {X: 0, Y: 0, W: 3, H: 1}, {X: 0, Y: 1, W: 3, H: 1}}
	if i, ok := Hit(rs, 1, 1); !ok || i != 2 {
		t.Errorf("Hit = %d, %v; want 2", i, ok)
	}
	if _, ok := Hit(rs, 5, 5); ok {
		t.Error("Hit outside every rectangle")
	}
}
