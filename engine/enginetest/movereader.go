package enginetest

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// SameAsDecodeMove fails t unless [engine.DecodeMoveWith] with read gives
// for b exactly what [engine.DecodeMove] gives: the same value, or an
// error with the same text. A game's fuzz test of its move reader calls
// it, so that the reader stays a fast path of the strict decoder and never
// a second definition of the format.
func SameAsDecodeMove[T any](t testing.TB, b []byte, read func(r *engine.MoveReader, v *T)) {
	t.Helper()
	var old, fast T
	oldErr := engine.DecodeMove(b, &old)
	fastErr := engine.DecodeMoveWith(b, &fast, read)
	switch {
	case (oldErr == nil) != (fastErr == nil):
		t.Fatalf("%q: DecodeMove says %v, DecodeMoveWith says %v", b, oldErr, fastErr)
	case oldErr != nil && oldErr.Error() != fastErr.Error():
		t.Fatalf("%q: DecodeMove says %q, DecodeMoveWith says %q", b, oldErr, fastErr)
	case !reflect.DeepEqual(old, fast):
		t.Fatalf("%q: DecodeMove gives %#v, DecodeMoveWith gives %#v", b, old, fast)
	}
}

// SameAsDecodeMoveWith fails t unless decode, a game's decoder that calls
// [engine.ReadMove] with read itself and [engine.DecodeMoveAs] when it
// gives up, gives for b what [engine.DecodeMoveWith] with read gives.
func SameAsDecodeMoveWith[T any](t testing.TB, b []byte, decode func([]byte) (T, error), read func(r *engine.MoveReader, v *T)) {
	t.Helper()
	var want T
	wantErr := engine.DecodeMoveWith(b, &want, read)
	got, err := decode(b)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: the game's decoder gives %#v, %v; DecodeMoveWith %#v, %v", b, got, err, want, wantErr)
	}
}

// MoveReaderSeeds returns fuzz seeds for a move reader: the honest
// encodings given, and near misses of each that the reader must leave to
// the strict decoder or read as it does (spaces, a repeated or re-cased
// key, an unknown field, trailing data, escapes, numbers that are not
// plain integers, null, bytes that are not UTF-8).
func MoveReaderSeeds(honest ...[]byte) [][]byte {
	out := slices.Clone(honest)
	for _, b := range honest {
		s := string(b)
		out = append(out,
			[]byte(" "+strings.ReplaceAll(s, ",", " ,\n\t")+" "), []byte(s+"{}"), []byte(s+"x"),
			[]byte(strings.Replace(s, "{", `{"zz":1,`, 1)), []byte(strings.ToUpper(s)),
			[]byte(strings.Replace(s, `"`, `"\u0061`, 3)), []byte(strings.Replace(s, ":", ":null,\"a\":", 1)),
			[]byte(strings.Replace(s, "1", "1.0", 1)), []byte(strings.Replace(s, "1", "1e0", 1)),
			[]byte(strings.Replace(s, "1", "01", 1)), []byte(strings.Replace(s, "1", "-0", 1)),
			[]byte(strings.Replace(s, "1", "99999999999999999999", 1)), []byte(strings.Replace(s, "]", ",]", 1)),
			[]byte(strings.Replace(s, "}", ",}", 1)), []byte(strings.Replace(s, "[", "null,[", 1)),
			[]byte(strings.Replace(s, `":"`, "\":\"\xff", 1)), []byte(s[:len(s)/2]))
		if i := strings.IndexByte(s, ','); i > 0 && s[0] == '{' {
			out = append(out, []byte(s[:i]+","+s[1:])) // the first field twice
		}
	}
	return append(out, []byte(`null`), []byte(`[]`), []byte(``), []byte(`{}`))
}

// CheckMoveReader fails t unless read takes every honest encoding on the
// fast path, and gives what the strict decoder gives for each of them and
// each of their near misses ([MoveReaderSeeds]).
func CheckMoveReader[T any](t *testing.T, honest [][]byte, read func(r *engine.MoveReader, v *T)) {
	t.Helper()
	for _, b := range honest {
		if _, ok := engine.ReadMove(b, read); !ok {
			t.Errorf("the fast path leaves %s to the strict decoder", b)
		}
	}
	for _, b := range MoveReaderSeeds(honest...) {
		SameAsDecodeMove(t, b, read)
	}
}
