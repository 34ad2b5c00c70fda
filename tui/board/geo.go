package board

// Rect is a screen rectangle: its top-left cell and its size in cells.
type Rect struct{ X, Y, W, H int }

// Has reports whether screen position x, y falls inside r; a rectangle of
// no width or no height never does.
func (r Rect) Has(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Hit returns the index of the first of rs that has x, y.
func Hit(rs []Rect, x, y int) (int, bool) {
	for i, r := range rs {
		if r.Has(x, y) {
			return i, true
		}
	}
	return 0, false
}
