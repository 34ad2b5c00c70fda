package deck

import "testing"

func BenchmarkZZMSM(b *testing.B) {
	tb := newTable(b, 2, 60, 1)
	for _, n := range []int{1, 2, 3, 121} {
		sc := make([]*scalar, n)
		el := make([]*element, n)
		for i := range sc {
			sc[i] = tb.p.gens[0+0].dummyScalar(i)
			el[i] = tb.p.gens[i%60]
		}
		b.Run(string(rune('0'+n%10))+"n", func(b *testing.B) {
			for b.Loop() {
				newElement().VarTimeMultiScalarMult(sc, el)
			}
		})
	}
	b.Run("dbl", func(b *testing.B) {
		s := tb.p.gens[0].dummyScalar(5)
		for b.Loop() {
			newElement().VarTimeDoubleScalarBaseMult(s, tb.p.gens[3], s)
		}
	})
	b.Run("enc", func(b *testing.B) {
		for b.Loop() {
			tb.p.gens[3].Encode(nil)
		}
	})
	b.Run("dec", func(b *testing.B) {
		enc := tb.p.gens[3].Encode(nil)
		for b.Loop() {
			newElement().Decode(enc)
		}
	})
}

func (e *element) dummyScalar(i int) *scalar {
	var w [64]byte
	w[0], w[1], w[40] = byte(i), 7, 99
	return newScalar().FromUniformBytes(w[:])
}
