package fairness

import (
	"strings"
	"testing"
)

// TestForgedOpeningsKeepTheirVerdicts forges seat 1's openings in a real
// match, at every message that opens something (so that earlier openings
// of the vector have proved nodes the check now stops at): a forged leaf,
// a wrong sibling at the bottom or the top of the path (a path to another
// root), a short path, a duplicate or a missing opening; and at the final
// reveal a forged value and a partially opened vector. Each must be
// refused as a signed violation of seat 1 in that message, in the words of
// the check it failed when every opening was checked on its own
// (Opening.Verify, FullVector.Verify) or of the count check.
func TestForgedOpeningsKeepTheirVerdicts(t *testing.T) {
	p := playHonestPeek(t, 24)
	forged := 0
	for _, k := range p.seat1Turns() {
		body, err := DecodeBody(p.envs[k].Body)
		if err != nil {
			t.Fatal(err)
		}
		m := p.replay(t, k)
		id := m.ID()
		for i, in := range body.Inputs {
			if in.T != InMove && in.T != InOpen {
				continue // a hidden choice's reveal: one leaf, committed in the same message
			}
			for _, f := range openingForgeries(in) {
				over := *body
				over.Inputs = append([]WireInput(nil), body.Inputs...)
				over.Inputs[i] = f.input
				b, err := EncodeBody(&over)
				if err != nil {
					t.Fatal(err)
				}
				want := f.want
				if want == "" {
					c := m.commits[commitKey{1, f.vector}]
					if len(f.input.Full) > 0 {
						want = errText(f.input.Full[0].Verify(id, 1, c.root, c.size))
					} else {
						want = errText(f.input.Open[0].Verify(id, c.root, c.size))
					}
				}
				m := p.replay(t, k)
				_, err = m.Accept(p.resigned(t, k, func(e *Envelope) { e.Body = b }))
				var v *Violation
				if v = m.Broken(); v == nil || v.Seat != 1 || !v.Signed || v.Seq != p.envs[k].Seq || !strings.Contains(errText(err), want) {
					t.Fatalf("message %d, %s: %v (violation %+v), want seat 1's signed violation saying %q", k+1, f.name, err, v, want)
				}
				forged++
			}
		}
	}
	if forged < 10 {
		t.Fatalf("only %d forgeries tried", forged)
	}
}

type openingForgery struct {
	name   string
	vector string
	input  WireInput
	want   string // the fixed words, or "" for the lone check's
}

// openingForgeries returns the forgeries of one input's openings.
func openingForgeries(in WireInput) []openingForgery {
	var out []openingForgery
	edit := func(name string, want string, change func(*WireInput)) {
		c := in
		c.Open = make([]Opening, len(in.Open))
		for i, o := range in.Open {
			o.Path = append([]Digest(nil), o.Path...)
			o.Value = append(Hex(nil), o.Value...)
			c.Open[i] = o
		}
		c.Full = make([]FullVector, len(in.Full))
		for i, f := range in.Full {
			f.Values = append([]Hex(nil), f.Values...)
			f.Salts = append([]Salt(nil), f.Salts...)
			c.Full[i] = f
		}
		change(&c)
		vector := ""
		if len(c.Open) > 0 {
			vector = c.Open[0].Slot.Name
		} else if len(c.Full) > 0 {
			vector = c.Full[0].Name
		}
		out = append(out, openingForgery{name, vector, c, want})
	}
	if len(in.Open) > 0 {
		edit("forged leaf", "", func(c *WireInput) { c.Open[0].Value = Hex{0x7f} })
		if len(in.Open[0].Path) > 0 {
			edit("wrong bottom sibling", "", func(c *WireInput) { c.Open[0].Path[0][3] ^= 1 })
			edit("wrong top sibling", "", func(c *WireInput) { c.Open[0].Path[len(c.Open[0].Path)-1][5] ^= 1 })
			edit("short path", "", func(c *WireInput) { c.Open[0].Path = c.Open[0].Path[1:] })
		}
		edit("long path", "", func(c *WireInput) { c.Open[0].Path = append(c.Open[0].Path, Digest{1}) })
		edit("duplicate opening", "openings where the rules call for", func(c *WireInput) { c.Open = append(c.Open, c.Open[0]) })
		edit("missing opening", "openings where the rules call for", func(c *WireInput) { c.Open = c.Open[:len(c.Open)-1] })
	}
	if len(in.Full) > 0 {
		edit("forged value in a full opening", "", func(c *WireInput) { c.Full[0].Values[0] = Hex{0x7f} })
		edit("partly opened vector", "", func(c *WireInput) {
			c.Full[0].Values, c.Full[0].Salts = c.Full[0].Values[1:], c.Full[0].Salts[1:]
		})
	}
	return out
}
