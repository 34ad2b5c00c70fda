package enginetest

import (
	"reflect"
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
