package engine

import "encoding"

// MoveReader reads a move in the compact JSON that [EncodeMove] writes,
// without reflection: an audit replays every move of a match, and
// encoding/json's strict decoder was a tenth of a two-player audit.
//
// It reads only a strict subset of JSON, the one an honest peer sends:
// objects whose keys are written exactly as the move's field names, each
// once; integers without fraction or exponent; strings of printable ASCII
// without escapes; arrays; whitespace between tokens. Anything else (an
// escape, a key in other case, a duplicate, null, an unknown field,
// trailing data, a value of the wrong kind) only makes it give up, and
// [DecodeMoveWith] then decodes the move with [DecodeMove], which accepts
// or refuses it exactly as before, with the same error. So for every input
// the result is the old decoder's: the reader is a fast path, never a
// second definition of the format.
type MoveReader struct {
	b   []byte
	i   int
	bad bool
}

// maxKeys bounds an object's keys in the subset (a move has fewer fields).
const maxKeys = 16

// Fail makes the reader give up (a game's field reader calls it for a key
// it does not know).
func (r *MoveReader) Fail() { r.bad = true }

// OK reports whether everything read so far was in the subset.
func (r *MoveReader) OK() bool { return !r.bad }

func (r *MoveReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// byte consumes c after optional whitespace, or gives up.
func (r *MoveReader) byte(c byte) {
	r.space()
	if r.bad || r.i >= len(r.b) || r.b[r.i] != c {
		r.bad = true
		return
	}
	r.i++
}

// peek returns the next byte after whitespace (0 at the end).
func (r *MoveReader) peek() byte {
	r.space()
	if r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// raw reads a string's bytes without quotes, or gives up on anything but
// printable ASCII without escapes.
func (r *MoveReader) raw() []byte {
	r.byte('"')
	if r.bad {
		return nil
	}
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			return r.b[start : r.i-1]
		case c < 0x20 || c > 0x7e || c == '\\':
			r.bad = true
			return nil
		}
		r.i++
	}
	r.bad = true
	return nil
}

// String reads a string.
func (r *MoveReader) String() string { return string(r.raw()) }

// Bytes reads a string as String does, returning its bytes within the
// move rather than a copy: for a reader that parses a value at once (a
// cell's name) and keeps only what it parses.
func (r *MoveReader) Bytes() []byte { return r.raw() }

// Text reads a string into u by its UnmarshalText, as encoding/json does;
// an error of u makes the reader give up (the old decoder then reports it).
func (r *MoveReader) Text(u encoding.TextUnmarshaler) {
	b := r.raw()
	if !r.bad && u.UnmarshalText(b) != nil {
		r.bad = true
	}
}

// Int reads an integer of at most 18 digits, without fraction or exponent.
func (r *MoveReader) Int() int {
	r.space()
	neg := r.i < len(r.b) && r.b[r.i] == '-'
	if neg {
		r.i++
	}
	start, v := r.i, 0
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		v = v*10 + int(r.b[r.i]-'0')
		r.i++
	}
	n := r.i - start
	if n == 0 || n > 18 || (n > 1 && r.b[start] == '0') {
		r.bad = true
	}
	if r.i < len(r.b) {
		if c := r.b[r.i]; c == '.' || c == 'e' || c == 'E' {
			r.bad = true
		}
	}
	if neg {
		return -v
	}
	return v
}

// Object reads an object, calling field for each key (which reads the
// value, or calls Fail for a key it does not know; it switches on
// string(key), which allocates nothing). A key written twice makes the
// reader give up.
func (r *MoveReader) Object(field func(key []byte)) {
	r.byte('{')
	if r.peek() == '}' {
		r.i++
		return
	}
	var seen [maxKeys][]byte
	n := 0
	for !r.bad {
		key := r.raw()
		for _, k := range seen[:n] {
			if string(k) == string(key) {
				r.bad = true
			}
		}
		if n == len(seen) {
			r.bad = true
		}
		r.byte(':')
		if r.bad {
			return
		}
		seen[n] = key
		n++
		field(key)
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.bad = true
		}
	}
}

// List reads an array, calling elem for each element; an empty array is
// an empty list that is not nil and null is nil, as encoding/json decodes
// them (into a fresh move: a key read twice makes the reader give up).
func List[T any](r *MoveReader, elem func(r *MoveReader) T) []T {
	if r.peek() == 'n' {
		if r.i+4 > len(r.b) || string(r.b[r.i:r.i+4]) != "null" {
			r.bad = true
		}
		r.i += 4
		return nil
	}
	r.byte('[')
	out := []T{}
	if r.peek() == ']' {
		r.i++
		return out
	}
	for !r.bad {
		out = append(out, elem(r))
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return out
		default:
			r.bad = true
		}
	}
	return nil
}

// ReadInt and ReadString read one element of a [List].
func ReadInt(r *MoveReader) int       { return r.Int() }
func ReadString(r *MoveReader) string { return r.String() }

// ReadText returns a [List] element reader for a type that decodes from a
// string by its UnmarshalText.
func ReadText[T any, P interface {
	*T
	encoding.TextUnmarshaler
}](r *MoveReader) T {
	var v T
	r.Text(P(&v))
	return v
}

// DecodeMoveWith decodes a move into the zero value *v: with read over a
// [MoveReader] when the move is in the reader's subset, else with
// [DecodeMove]. For every input it gives what DecodeMove gives (the same
// value, the same error); it is only faster. read must set exactly what
// encoding/json would set for the keys it reads (a fuzz test of each game
// holds it to that against DecodeMove).
func DecodeMoveWith[T any](b []byte, v *T, read func(r *MoveReader, v *T)) error {
	if fast, ok := ReadMove(b, read); ok {
		*v = fast
		return nil
	}
	return DecodeMove(b, v)
}

// DecodeMoveAs is DecodeMove returning the move: what a game's decoder
// calls when [ReadMove] gives up. A game that calls ReadMove itself, with
// its reader as a constant, and DecodeMoveAs only then, decodes exactly
// as DecodeMoveWith does, but the compiler inlines the reader there and
// keeps the move off the heap (an audit decodes every move twice: to
// learn what it opens, and to apply it).
func DecodeMoveAs[T any](b []byte) (T, error) {
	var v T
	err := DecodeMove(b, &v)
	return v, err
}

// ReadMove reads b with read over a [MoveReader]; false when b is not in
// the reader's subset, trailing data included.
func ReadMove[T any](b []byte, read func(r *MoveReader, v *T)) (T, bool) {
	r := MoveReader{b: b}
	var v T
	read(&r, &v)
	r.space()
	return v, !r.bad && r.i == len(r.b)
}
