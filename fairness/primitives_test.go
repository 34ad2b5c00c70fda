package fairness

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

func TestMerklePathsVerifyForEverySizeAndIndex(t *testing.T) {
	for n := 1; n <= 70; n++ {
		leaves := make([]Digest, n)
		for i := range leaves {
			leaves[i] = newHasher("test").int(n).int(i).sum()
		}
		root := MerkleRoot(leaves)
		for i := 0; i < n; i++ {
			path := MerklePath(leaves, i)
			if err := VerifyPath(root, n, i, leaves[i], path); err != nil {
				t.Fatalf("n=%d i=%d: %v", n, i, err)
			}
			if n > 1 {
				if err := VerifyPath(root, n, (i+1)%n, leaves[i], path); err == nil {
					t.Fatalf("n=%d: leaf %d verified at index %d", n, i, (i+1)%n)
				}
			}
			if err := VerifyPath(root, n, i, leaves[(i+1)%n], path); n > 1 && err == nil {
				t.Fatalf("n=%d i=%d: another leaf verified", n, i)
			}
			if len(path) > 0 {
				if err := VerifyPath(root, n, i, leaves[i], path[1:]); err == nil {
					t.Fatalf("n=%d i=%d: a short path verified", n, i)
				}
				if err := VerifyPath(root, n, i, leaves[i], append(path, path[0])); err == nil {
					t.Fatalf("n=%d i=%d: a long path verified", n, i)
				}
			}
		}
	}
}

func TestOpeningsBindMatchSlotSaltAndValue(t *testing.T) {
	match := newHasher("m").sum()
	v, err := NewVector(match, 1, "grid", [][]byte{{0}, {3}, {0}, {5}})
	if err != nil {
		t.Fatal(err)
	}
	o, err := v.Open(3)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Verify(match, v.Root(), v.Size()); err != nil {
		t.Fatalf("honest opening: %v", err)
	}
	cases := map[string]func(o *Opening) (Digest, int){
		"other match": func(o *Opening) (Digest, int) { return newHasher("other").sum(), 4 },
		"other owner": func(o *Opening) (Digest, int) { o.Slot.Owner = 0; return match, 4 },
		"other name":  func(o *Opening) (Digest, int) { o.Slot.Name = "deck"; return match, 4 },
		"other index": func(o *Opening) (Digest, int) { o.Slot.Index = 1; return match, 4 },
		"other value": func(o *Opening) (Digest, int) { o.Value = []byte{4}; return match, 4 },
		"other salt":  func(o *Opening) (Digest, int) { o.Salt[31] ^= 0x80; return match, 4 },
		"other size":  func(o *Opening) (Digest, int) { return match, 5 },
	}
	for name, bend := range cases {
		t.Run(name, func(t *testing.T) {
			b := o
			b.Value = append([]byte(nil), o.Value...)
			m, size := bend(&b)
			if err := b.Verify(m, v.Root(), size); !errors.Is(err, ErrCommitment) {
				t.Fatalf("Verify = %v, want ErrCommitment", err)
			}
		})
	}
}

func TestOpeningJSONRoundTrip(t *testing.T) {
	match := newHasher("m").sum()
	v, _ := NewVector(match, 0, "w", [][]byte{{1}, {2}, {3}})
	o, _ := v.Open(2)
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var back Opening
	if err := strictUnmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"value":"03"`) {
		t.Fatalf("values are not hex in JSON: %s", b)
	}
	if err := back.Verify(match, v.Root(), 3); err != nil {
		t.Fatalf("round-tripped opening: %v", err)
	}
}

func TestDiceChainLinksVerifyInOrderOnly(t *testing.T) {
	match := newHasher("m").sum()
	c := newChainFromSeed(match, 1, newHasher("seed").sum(), 10)
	prev := c.Tip()
	for k := 1; k <= 10; k++ {
		l, err := c.Link(k)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyLink(match, 1, prev, l); err != nil {
			t.Fatalf("link %d: %v", k, err)
		}
		if k > 1 {
			if err := VerifyLink(match, 1, c.Tip(), l); err == nil {
				t.Fatalf("link %d verified against the tip", k)
			}
		}
		if err := VerifyLink(match, 0, prev, l); err == nil {
			t.Fatalf("link %d verified for another seat", k)
		}
		prev = l
	}
	if _, err := c.Link(11); err == nil {
		t.Fatal("link past the end")
	}
}

func TestRollValuesAreInRangeAndUnbiased(t *testing.T) {
	match := newHasher("m").sum()
	const bound, rolls = 6, 6000
	var counts [bound]int
	for r := 0; r < rolls/10; r++ {
		shares := []Share{{0, newHasher("a").int(r).sum()}, {1, newHasher("b").int(r).sum()}}
		vals, err := RollValues(match, r, "dice", 10, bound, shares)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if v < 0 || v >= bound {
				t.Fatalf("value %d out of range", v)
			}
			counts[v]++
		}
	}
	// Chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value.
	var chi float64
	for _, c := range counts {
		d := float64(c) - rolls/bound
		chi += d * d / (rolls / bound)
	}
	if chi > 20.5 {
		t.Fatalf("counts %v look biased (chi² %.1f)", counts, chi)
	}
	a, _ := RollValues(match, 1, "x", 3, 1<<40, []Share{{0, Digest{1}}})
	b, _ := RollValues(match, 1, "x", 3, 1<<40, []Share{{0, Digest{2}}})
	if a[0] == b[0] {
		t.Fatal("different shares gave the same roll")
	}
	for _, bad := range [][2]int{{0, 6}, {MaxRollCount + 1, 6}, {1, 0}, {1, -3}} {
		if _, err := RollValues(match, 0, "x", bad[0], bad[1], nil); err == nil {
			t.Errorf("count %d bound %d accepted", bad[0], bad[1])
		}
	}
	if v, err := RollValues(match, 0, "x", 1, math.MaxInt64, nil); err != nil || v[0] < 0 {
		t.Errorf("largest bound: %v %v", v, err)
	}
}

// TestRollValuesPinned pins two rolls to the values they had when every
// roll made a new XOF, computed again and again in turn, so that an XOF
// kept for reuse (xofs) carries nothing from one roll into the next, even
// one that drew more output.
func TestRollValuesPinned(t *testing.T) {
	for range 3 {
		v, err := RollValues(Digest{7, 1}, 3, "deal", 6, 1000, []Share{{0, Digest{1}}, {1, Digest{2, 9}}})
		if err != nil || !slices.Equal(v, []int{710, 379, 847, 578, 525, 707}) {
			t.Fatalf("deal: %v %v", v, err)
		}
		v, err = RollValues(Digest{7, 2}, 40, "draw/1", 1, 1<<40, []Share{{0, Digest{4}}, {1, Digest{5}}, {2, Digest{6}}})
		if err != nil || !slices.Equal(v, []int{550633913503}) {
			t.Fatalf("draw: %v %v", v, err)
		}
	}
}

func TestEnvelopeSignatureCoversEveryField(t *testing.T) {
	keys := testKeys(t, 2)
	e := &Envelope{Match: strings.Repeat("a", 64), Seq: 3, Prev: strings.Repeat("b", 64), Body: []byte(`{"inputs":[{"t":"resign"}],"state":"00"}`)}
	if err := e.Sign(keys[0]); err != nil {
		t.Fatal(err)
	}
	if err := e.Verify(keys[0].GetPublic()); err != nil {
		t.Fatal(err)
	}
	if err := e.Verify(keys[1].GetPublic()); !errors.Is(err, ErrSignature) {
		t.Fatalf("verified against another key: %v", err)
	}
	for name, bend := range map[string]func(*Envelope){
		"match": func(e *Envelope) { e.Match = strings.Repeat("c", 64) },
		"seq":   func(e *Envelope) { e.Seq++ },
		"prev":  func(e *Envelope) { e.Prev = strings.Repeat("c", 64) },
		"body":  func(e *Envelope) { e.Body = []byte(`{"inputs":[{"t":"resign"}],"state":"01"}`) },
		"from":  func(e *Envelope) { e.From = "x" },
	} {
		c := *e
		bend(&c)
		if err := c.Verify(keys[0].GetPublic()); !errors.Is(err, ErrSignature) {
			t.Errorf("changed %s still verifies", name)
		}
	}
	b, err := EncodeEnvelope(e)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeEnvelope(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != e.Hash() {
		t.Fatal("round trip changed the envelope")
	}
}

func TestDecodeEnvelopeRejectsMalformedInput(t *testing.T) {
	cases := map[string][]byte{
		"empty":          nil,
		"not json":       []byte("hello"),
		"unknown field":  []byte(`{"match":"","seq":1,"from":"","prev":"","body":{},"sig":"","x":1}`),
		"no body":        []byte(`{"match":"","seq":1,"from":"","prev":"","sig":""}`),
		"spaced body":    []byte(`{"match":"","seq":1,"from":"","prev":"","body":{ "a" : 1 },"sig":""}`),
		"trailing":       []byte(`{"match":"","seq":1,"from":"","prev":"","body":{},"sig":""} {}`),
		"negative seq":   []byte(`{"match":"","seq":-1,"from":"","prev":"","body":{},"sig":""}`),
		"oversized":      bytes.Repeat([]byte(" "), MaxEnvelope+1),
		"array":          []byte(`[]`),
		"body is string": []byte(`{"match":"","seq":1,"from":"","prev":"","body":"x","sig":""}`),
	}
	for name, in := range cases {
		if e, err := DecodeEnvelope(in); err == nil {
			if _, err := DecodeBody(e.Body); err == nil {
				t.Errorf("%s: accepted", name)
			}
		}
	}
}

// An envelope is refused at once, by DecodeEnvelope itself, when its body
// is not an object: null or another kind of value (a missing body is not
// the one form Salvo writes, and is refused for that).
func TestDecodeEnvelopeRefusesBodilessEnvelope(t *testing.T) {
	if _, err := DecodeEnvelope([]byte(`{"match":"","seq":1,"from":"","prev":"","sig":""}`)); err == nil {
		t.Error("an envelope without a body decodes")
	}
	for name, in := range map[string]string{
		"null":      `{"match":"","seq":1,"from":"","prev":"","body":null,"sig":""}`,
		"string":    `{"match":"","seq":1,"from":"","prev":"","body":"x","sig":""}`,
		"array":     `{"match":"","seq":1,"from":"","prev":"","body":[],"sig":""}`,
		"a number":  `{"match":"","seq":1,"from":"","prev":"","body":1,"sig":""}`,
		"a boolean": `{"match":"","seq":1,"from":"","prev":"","body":true,"sig":""}`,
	} {
		if _, err := DecodeEnvelope([]byte(in)); err == nil || !strings.Contains(err.Error(), "no body") {
			t.Errorf("%s: %v, want a refusal for having no body", name, err)
		}
	}
}

func FuzzDecodeEnvelope(f *testing.F) {
	keys := testKeys(f, 1)
	e := &Envelope{Match: strings.Repeat("a", 64), Seq: 1, Prev: strings.Repeat("a", 64), Body: []byte(`{"inputs":[{"t":"move","move":{"x":1},"open":[]}],"state":"00"}`)}
	e.Sign(keys[0])
	b, _ := EncodeEnvelope(e)
	f.Add(b)
	f.Add([]byte(`{"match":"","seq":1,"from":"","prev":"","body":{"inputs":[]},"sig":""}`))
	seedLines(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEnvelope(data)
		if err != nil {
			return
		}
		_ = e.Hash()
		_ = e.Verify(keys[0].GetPublic())
		if body, err := DecodeBody(e.Body); err == nil {
			for _, in := range body.Inputs {
				for _, o := range in.Open {
					_ = o.Verify(Digest{}, Digest{}, 1)
				}
			}
		}
		again, err := EncodeEnvelope(e)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("%.80q decodes, but its one form is %.80q", data, again)
		}
	})
}

func FuzzAudit(f *testing.F) {
	f.Add([]byte(`{"salvo":"salvo-transcript/1","game":"peek","variant":"standard","rules":"peek/1","players":[],"match":""}` + "\n"))
	f.Add([]byte("{}\n{}\n"))
	f.Add([]byte(`{"closing":"timeout"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Audit(bytes.NewReader(data), peekSpecs)
		if err == nil && rep.Verdict == Clean && len(rep.Steps) == 0 {
			t.Fatalf("an empty match audited clean")
		}
	})
}

func TestOrderPutsLastSenderFirstAndActorLast(t *testing.T) {
	m := &Match{keys: make([]crypto.PubKey, 4), lastFrom: 2}
	got := m.order(engine.Need{Kind: engine.NeedRandom, Seats: []engine.Seat{0, 1, 2, 3}, Seat: 3})
	want := []engine.Seat{2, 0, 1, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order = %v, want %v", got, want)
		}
	}
}
