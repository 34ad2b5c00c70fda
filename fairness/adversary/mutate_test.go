package adversary

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// adversary rewrites its own record of a match at random. It holds the
// keys of its seats and every public value: the header and every signed
// line of the honest record.
type adversary struct {
	m       *match
	seats   []engine.Seat // the seats whose keys it holds
	r       *mrand.Rand
	base    []string         // its own honest record
	baseRep *fairness.Report // and its audit
	lines   []string         // the record being rewritten: the header, then the rest
	done    []string         // the mutations applied, in order
}

// mutation is one kind of rewrite; it reports what it did, or "" when it
// found nothing to do.
type mutation struct {
	name   string
	weight int
	apply  func(a *adversary) string
}

// mutations lists every kind of rewrite, with how often each is picked.
var mutations = []mutation{
	{"drop", 2, (*adversary).drop},
	{"duplicate", 2, (*adversary).duplicate},
	{"reorder", 2, (*adversary).reorder},
	{"truncate", 3, (*adversary).truncate},
	{"torn", 1, (*adversary).torn},
	{"resign-own", 4, (*adversary).resignOwn},
	{"branch", 4, (*adversary).branch},
	{"forge-other", 4, (*adversary).forgeOther},
	{"raw", 1, (*adversary).raw},
	{"closing", 4, (*adversary).closing},
	{"claim-violation", 4, (*adversary).claimViolation},
	{"claim-forfeit", 4, (*adversary).claimForfeit},
	{"admit", 3, (*adversary).admit},
	{"respell-sig", 2, (*adversary).respellSig},
	{"respell-json", 2, (*adversary).respellJSON},
	{"header", 1, (*adversary).header},
}

// pick returns a mutation kind at random by weight, leaving out those
// -without names.
func (a *adversary) pick() mutation {
	total := 0
	for _, m := range mutations {
		total += a.weight(m)
	}
	n := a.r.IntN(total)
	for _, m := range mutations {
		if n < a.weight(m) {
			return m
		}
		n -= a.weight(m)
	}
	return mutations[0]
}

func (a *adversary) weight(m mutation) int {
	if slices.Contains(strings.Split(*without, ","), m.name) {
		return 0
	}
	return m.weight
}

// rewrite applies 1 to 4 random mutations and returns how many took.
func (a *adversary) rewrite() int {
	n := 1 + a.r.IntN(4)
	for range n {
		for try := 0; try < 8; try++ {
			m := a.pick()
			if what := m.apply(a); what != "" {
				a.done = append(a.done, m.name+": "+what)
				break
			}
		}
	}
	return len(a.done)
}

// body returns a random line index after the header, or 0 if none.
func (a *adversary) body() int {
	if len(a.lines) < 2 {
		return 0
	}
	return 1 + a.r.IntN(len(a.lines)-1)
}

// at returns a random insertion index after the header, favouring the end.
func (a *adversary) at() int {
	if a.r.IntN(3) == 0 {
		return len(a.lines)
	}
	return 1 + a.r.IntN(len(a.lines))
}

func (a *adversary) insert(i int, line string) {
	a.lines = append(a.lines[:i], append([]string{line}, a.lines[i:]...)...)
}

func (a *adversary) drop() string {
	i := a.body()
	if i == 0 {
		return ""
	}
	a.lines = append(a.lines[:i], a.lines[i+1:]...)
	return fmt.Sprintf("line %d", i+1)
}

func (a *adversary) duplicate() string {
	i := a.body()
	if i == 0 {
		return ""
	}
	j := a.at()
	a.insert(j, a.lines[i])
	return fmt.Sprintf("line %d again at %d", i+1, j+1)
}

func (a *adversary) reorder() string {
	i, j := a.body(), a.body()
	if i == 0 || i == j {
		return ""
	}
	if a.r.IntN(2) == 0 {
		a.lines[i], a.lines[j] = a.lines[j], a.lines[i]
		return fmt.Sprintf("lines %d and %d swapped", i+1, j+1)
	}
	l := a.lines[i]
	a.lines = append(a.lines[:i], a.lines[i+1:]...)
	j = min(j, len(a.lines))
	a.insert(j, l)
	return fmt.Sprintf("line %d moved to %d", i+1, j+1)
}

// truncate cuts the record as if its writer stalled or crashed there.
func (a *adversary) truncate() string {
	i := a.body()
	if i == 0 {
		return ""
	}
	a.lines = a.lines[:i]
	return fmt.Sprintf("cut after line %d", i)
}

// torn cuts the last line part way, as a crash in the middle of a write.
func (a *adversary) torn() string {
	i := len(a.lines) - 1
	if i < 1 || len(a.lines[i]) < 2 {
		return ""
	}
	n := 1 + a.r.IntN(len(a.lines[i])-1)
	a.lines[i] = a.lines[i][:n]
	return fmt.Sprintf("line %d torn after %d bytes", i+1, n)
}

// envelopes returns the indexes of lines that are envelopes sent by seats
// the adversary holds (own) or not.
func (a *adversary) envelopes(own bool) []int {
	var out []int
	for i, l := range a.lines[1:] {
		e, ok := decodeEnvelope(l)
		if ok && a.holds(a.m.h.Seat(e.From)) == own {
			out = append(out, i+1)
		}
	}
	return out
}

// pickEnvelope returns a random envelope line of the record, sent by a
// seat the adversary holds (own) or not, and its index; nil if none.
func (a *adversary) pickEnvelope(own bool) (int, *fairness.Envelope) {
	lines := a.envelopes(own)
	if len(lines) == 0 {
		return 0, nil
	}
	i := lines[a.r.IntN(len(lines))]
	e, _ := decodeEnvelope(a.lines[i])
	return i, e
}

func (a *adversary) holds(s engine.Seat) bool {
	for _, h := range a.seats {
		if h == s {
			return true
		}
	}
	return false
}

func (a *adversary) key(s engine.Seat) crypto.PrivKey { return a.m.keys[s] }

// anyKey returns one of the adversary's seats and keys.
func (a *adversary) anyKey() (engine.Seat, crypto.PrivKey) {
	s := a.seats[a.r.IntN(len(a.seats))]
	return s, a.key(s)
}

// change alters one field of e (any field but the signature) and says which.
func (a *adversary) change(e *fairness.Envelope) string {
	switch a.r.IntN(6) {
	case 0:
		d := []int{-1, 1, 2, -2}[a.r.IntN(4)]
		e.Seq = uint64(int(e.Seq) + d)
		return fmt.Sprintf("seq %+d", d)
	case 1:
		if o, ok := decodeEnvelope(a.lines[a.body()]); ok {
			h := o.Hash()
			e.Prev = hex.EncodeToString(h[:])
			return "prev of another line"
		}
		e.Prev = strings.Repeat("0", 64)
		return "prev zeroed"
	case 2:
		e.Match = strings.Repeat("ab", 32)
		return "another match"
	case 3:
		e.From = a.m.h.Players[a.r.IntN(len(a.m.h.Players))].Peer
		return "from another player"
	}
	return a.changeBody(e)
}

// changeBody alters the inputs or the state hash of e's body, keeping it
// well-formed JSON.
func (a *adversary) changeBody(e *fairness.Envelope) string {
	b, err := fairness.DecodeBody(e.Body)
	if err != nil {
		e.Body = json.RawMessage(`{"inputs":[],"state":""}`)
		return "body emptied"
	}
	what := ""
	switch a.r.IntN(5) {
	case 0:
		s := []byte(b.State)
		if len(s) > 0 {
			s[a.r.IntN(len(s))] ^= 1
		}
		b.State, what = string(s), "state hash"
	case 1:
		i := a.r.IntN(len(b.Inputs))
		b.Inputs, what = append(b.Inputs[:i:i], b.Inputs[i+1:]...), fmt.Sprintf("input %d dropped", i+1)
	case 2:
		i := a.r.IntN(len(b.Inputs))
		b.Inputs, what = append(b.Inputs, b.Inputs[i]), fmt.Sprintf("input %d repeated", i+1)
	case 3:
		i := a.r.IntN(len(b.Inputs))
		kinds := []fairness.InputKind{fairness.InMove, fairness.InOpen, fairness.InResign, fairness.InShare, fairness.InHello, fairness.InPreshare}
		b.Inputs[i].T = kinds[a.r.IntN(len(kinds))]
		what = fmt.Sprintf("input %d now a %s", i+1, b.Inputs[i].T)
	default:
		i := a.r.IntN(len(b.Inputs))
		if mv := b.Inputs[i].Move; len(mv) > 0 {
			b.Inputs[i].Move = json.RawMessage(bytes.Replace(mv, []byte("1"), []byte("2"), 1))
			what = fmt.Sprintf("input %d's move", i+1)
		} else {
			b.Inputs[i].Roll++
			what = fmt.Sprintf("input %d's roll", i+1)
		}
	}
	out, err := fairness.EncodeBody(b)
	if err != nil {
		return ""
	}
	e.Body = out
	return what
}

// resignOwn changes a field of one of its own messages and signs it again.
func (a *adversary) resignOwn() string {
	i, e := a.pickEnvelope(true)
	if e == nil {
		return ""
	}
	what := a.change(e)
	seat := a.m.h.Seat(e.From)
	if !a.holds(seat) {
		seat, _ = a.anyKey()
	}
	if err := e.Sign(a.key(seat)); err != nil {
		return ""
	}
	a.lines[i] = encode(e)
	return fmt.Sprintf("line %d (%s), signed again by seat %d", i+1, what, seat)
}

// branch keeps the record up to one of its own messages and puts in its
// place another version of it, signed: the other path it could claim.
func (a *adversary) branch() string {
	i, e := a.pickEnvelope(true)
	if e == nil {
		return ""
	}
	what := a.changeBody(e)
	if err := e.Sign(a.key(a.m.h.Seat(e.From))); err != nil {
		return ""
	}
	a.lines = append(a.lines[:i], encode(e))
	return fmt.Sprintf("cut at line %d, its own message there replaced (%s), signed", i+1, what)
}

// forgeOther puts a message in another player's name that does not verify.
func (a *adversary) forgeOther() string {
	i, e := a.pickEnvelope(false)
	if e == nil {
		return ""
	}
	victim := e.From
	what := ""
	switch a.r.IntN(4) {
	case 0:
		what = a.change(e) + ", signature kept"
	case 1:
		_, k := a.anyKey()
		what = a.change(e)
		_ = e.Sign(k)
		e.From = victim
		what += ", signed with its own key in the victim's name"
	case 2:
		sig := make([]byte, 64)
		for j := range sig {
			sig[j] = byte(a.r.IntN(256))
		}
		e.Sig, what = base64.StdEncoding.EncodeToString(sig), "random signature"
	default:
		e.Sig, what = "", "no signature"
	}
	line := encode(e)
	if a.r.IntN(2) == 0 {
		a.lines[i] = line
		return fmt.Sprintf("line %d: %s", i+1, what)
	}
	j := a.at()
	a.insert(j, line)
	return fmt.Sprintf("line %d's message (%s) inserted at %d", i+1, what, j+1)
}

// raw puts an undecodable message "from" a player.
func (a *adversary) raw() string {
	p := a.m.h.Players[a.r.IntN(len(a.m.h.Players))].Peer
	junk := make([]byte, 1+a.r.IntN(40))
	for j := range junk {
		junk[j] = byte(a.r.IntN(256))
	}
	j := a.at()
	a.insert(j, encode(fairness.Raw{Raw: base64.StdEncoding.EncodeToString(junk), From: p}))
	return fmt.Sprintf("undecodable bytes from %s at line %d", p, j+1)
}

// closing appends (or inserts) a closing record of any kind, signed with
// one of its own keys, often after cutting the record.
func (a *adversary) closing() string {
	cut := ""
	if a.r.IntN(2) == 0 {
		if i := a.body(); i > 0 {
			a.lines, cut = a.lines[:i+1], fmt.Sprintf("cut after line %d, ", i+1)
		}
	}
	n := len(a.m.h.Players)
	kinds := []fairness.CloseReason{fairness.CloseViolation, fairness.CloseTimeout, fairness.CloseAbandoned, fairness.CloseLeft, "resign"}
	c := &fairness.Closing{Closing: kinds[a.r.IntN(len(kinds))], Match: a.m.h.Match, Seat: a.r.IntN(n+2) - 1, Detail: "claimed"}
	msgs := 0
	for _, l := range a.lines[1:] {
		if _, ok := decodeEnvelope(l); ok {
			msgs++
		}
	}
	c.Seq = uint64(max(0, msgs+a.r.IntN(5)-3))
	seat, k := a.anyKey()
	if err := c.Sign(k); err != nil {
		return ""
	}
	sig := ""
	if a.r.IntN(8) == 0 {
		c.By, sig = a.m.h.Players[a.r.IntN(n)].Peer, ", then put in another's name"
	}
	j := len(a.lines)
	if a.r.IntN(4) == 0 {
		j = a.at()
	}
	a.insert(j, encode(c))
	return fmt.Sprintf("%s%s of seat %d after message %d at line %d, signed by seat %d%s", cut, c.Closing, c.Seat, c.Seq, j+1, seat, sig)
}

// claimViolation is the attack of issue 12's class 2, at random: cut the
// record before another seat's message, put there something in its name
// that proves nothing (badly signed, undecodable, or its later message
// moved up) and close with a signed violation record blaming it.
func (a *adversary) claimViolation() string {
	steps := a.baseRep.Steps
	if len(steps) == 0 {
		return ""
	}
	// The place: message k+1; past the honest record's end too, where
	// an honest record may hold its claim that the adversary went silent.
	k := a.r.IntN(len(steps) + 1)
	if k == len(steps) {
		return a.junkPastTheEnd(k)
	}
	victim := steps[k].Seat
	if a.holds(victim) {
		return ""
	}
	e, _ := decodeEnvelope(a.base[k+1])
	what := ""
	switch a.r.IntN(3) {
	case 0:
		what = a.change(e)
		e.From = a.m.h.Players[victim].Peer
	case 1:
		for j := k + 2; j < len(steps); j++ {
			if steps[j].Seat == victim {
				e, _ = decodeEnvelope(a.base[j+1])
				what = fmt.Sprintf("its message %d moved up", j+1)
				break
			}
		}
		if what == "" {
			return ""
		}
	default:
		e = nil
		what = "undecodable bytes"
	}
	a.lines = slices.Clone(a.base[:k+1])
	seq := uint64(k + 1)
	if e != nil {
		a.lines, seq = append(a.lines, encode(e)), e.Seq
	} else {
		a.lines = append(a.lines, encode(fairness.Raw{Raw: base64.StdEncoding.EncodeToString([]byte("junk")), From: a.m.h.Players[victim].Peer}))
	}
	seat, k2 := a.anyKey()
	c := &fairness.Closing{Closing: fairness.CloseViolation, Match: a.m.h.Match, Seat: int(victim), Seq: seq, Detail: "bad message"}
	if err := c.Sign(k2); err != nil {
		return ""
	}
	a.lines = append(a.lines, encode(c))
	return fmt.Sprintf("cut before message %d of seat %d, put %s there in its name, violation record signed by seat %d", k+1, victim, what, seat)
}

// junkPastTheEnd keeps the record's k messages and puts after them
// undecodable bytes "from" a seat the adversary does not hold, with a
// signed violation record blaming it: where the match waited for the
// adversary's own message, the honest record may hold nothing but its
// claim that the adversary went silent.
func (a *adversary) junkPastTheEnd(k int) string {
	victim := engine.Seat(a.r.IntN(len(a.m.h.Players)))
	if a.holds(victim) {
		return ""
	}
	seat, key := a.anyKey()
	c := &fairness.Closing{Closing: fairness.CloseViolation, Match: a.m.h.Match, Seat: int(victim), Seq: uint64(k + 1), Detail: "bad message"}
	if err := c.Sign(key); err != nil {
		return ""
	}
	junk := encode(fairness.Raw{Raw: base64.StdEncoding.EncodeToString([]byte("junk")), From: a.m.h.Players[victim].Peer})
	a.lines = append(slices.Clone(a.base[:k+1]), junk, encode(c))
	return fmt.Sprintf("after message %d, undecodable bytes in seat %d's name, violation record signed by seat %d", k, victim, seat)
}

// claimForfeit is the attack of class 3, at random: cut the record and
// close it with a signed timeout or abandoned record blaming another seat,
// usually the one the match waited for.
func (a *adversary) claimForfeit() string {
	steps := a.baseRep.Steps
	if len(steps) == 0 {
		return ""
	}
	k := a.r.IntN(len(steps)) // keep k messages
	blamed := steps[k].Seat
	if a.r.IntN(3) == 0 || a.holds(blamed) {
		blamed = engine.Seat(a.r.IntN(len(a.m.h.Players)))
	}
	if a.holds(blamed) {
		return ""
	}
	kind := []fairness.CloseReason{fairness.CloseTimeout, fairness.CloseAbandoned}[a.r.IntN(2)]
	seat, key := a.anyKey()
	c := &fairness.Closing{Closing: kind, Match: a.m.h.Match, Seat: int(blamed), Seq: uint64(k), Detail: "gone"}
	if err := c.Sign(key); err != nil {
		return ""
	}
	a.lines = append(slices.Clone(a.base[:k+1]), encode(c))
	return fmt.Sprintf("cut after message %d, %s of seat %d signed by seat %d", k, kind, blamed, seat)
}

// admit cuts the record (or not) and closes it with one of its seats' own
// signed word that it left (a left record), usually dated after the last
// message kept, sometimes a little before or after: an admission can only
// ever hurt its writer.
func (a *adversary) admit() string {
	steps := a.baseRep.Steps
	k := len(steps)
	if k > 0 && a.r.IntN(4) != 0 {
		k = a.r.IntN(k)
	}
	seat, key := a.anyKey()
	seq := max(0, k+[]int{0, 0, 0, -1, -2, 1}[a.r.IntN(6)])
	c := &fairness.Closing{Closing: fairness.CloseLeft, Match: a.m.h.Match, Seat: int(seat), Seq: uint64(seq), Detail: "left"}
	if err := c.Sign(key); err != nil {
		return ""
	}
	a.lines = append(slices.Clone(a.base[:k+1]), encode(c))
	return fmt.Sprintf("cut after message %d, seat %d's own left record after message %d", k, seat, seq)
}

// respellSig writes a signature differently: other padding bits, or a line
// break inside its base64.
func (a *adversary) respellSig() string {
	i := a.body()
	if i == 0 {
		return ""
	}
	l := a.lines[i]
	k := strings.Index(l, `"sig":"`)
	if k < 0 {
		return ""
	}
	k += len(`"sig":"`)
	end := strings.IndexByte(l[k:], '"')
	if end < 4 {
		return ""
	}
	sig := l[k : k+end]
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	if a.r.IntN(2) == 0 && strings.HasSuffix(sig, "==") {
		p := len(sig) - 3
		v := strings.IndexByte(alphabet, sig[p])
		if v < 0 {
			return ""
		}
		sig = sig[:p] + string(alphabet[v|1+a.r.IntN(15)]) + "=="
		a.lines[i] = l[:k] + sig + l[k+end:]
		return fmt.Sprintf("line %d: signature padding bits set", i+1)
	}
	p := 1 + a.r.IntN(len(sig)-2)
	a.lines[i] = l[:k] + sig[:p] + `\r\n` + sig[p:] + l[k+end:]
	return fmt.Sprintf("line %d: CRLF inside the signature", i+1)
}

// respellJSON writes a line's JSON differently: a key twice, a key in
// other case, a space, or CRLF at its end.
func (a *adversary) respellJSON() string {
	i := a.body()
	if i == 0 {
		return ""
	}
	l := a.lines[i]
	keys := []string{`"seq":`, `"from":`, `"closing":`, `"seat":`, `"prev":`, `"by":`}
	key := keys[a.r.IntN(len(keys))]
	if !strings.Contains(l, key) {
		return ""
	}
	switch a.r.IntN(4) {
	case 0:
		other := `"x",` // a string key gets a string first, a number key a number
		if key == `"seq":` || key == `"seat":` {
			other = `0,`
		}
		a.lines[i] = strings.Replace(l, key, key+other+key, 1)
		return fmt.Sprintf("line %d: key %s twice", i+1, key)
	case 1:
		a.lines[i] = strings.Replace(l, key, `"`+strings.ToUpper(key[1:2])+key[2:], 1)
		return fmt.Sprintf("line %d: key %s capitalised", i+1, key)
	case 2:
		a.lines[i] = strings.Replace(l, key, key+" ", 1)
		return fmt.Sprintf("line %d: a space after %s", i+1, key)
	}
	a.lines[i] = l + "\r"
	return fmt.Sprintf("line %d: CRLF line end", i+1)
}

// header changes a field of the header line.
func (a *adversary) header() string {
	var h fairness.Header
	if err := json.Unmarshal([]byte(a.lines[0]), &h); err != nil {
		return ""
	}
	h.Players = append([]fairness.Player(nil), h.Players...)
	what := ""
	switch a.r.IntN(3) {
	case 0:
		h.Created, what = "2001-01-01T00:00:00Z", "creation time"
	case 1:
		h.Players[0].Name, what = "mallory", "seat 0's name"
	default:
		h.Variant, what = "other", "variant"
	}
	a.lines[0] = encode(h)
	return what
}

// decodeEnvelope reads a line as an envelope, if it is one.
func decodeEnvelope(l string) (*fairness.Envelope, bool) {
	if !strings.HasPrefix(l, `{"match":`) {
		return nil, false
	}
	var e fairness.Envelope
	if err := json.Unmarshal([]byte(l), &e); err != nil {
		return nil, false
	}
	return &e, true
}

// encode writes v as a transcript line: compact JSON, no HTML escaping.
func encode(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only plain structs are encoded here
	}
	return strings.TrimRight(buf.String(), "\n")
}
