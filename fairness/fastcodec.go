package fairness

import (
	"bytes"
	"encoding/base64"
	"strconv"

	"github.com/salvo-game/salvo/engine"
)

// The fast path of envelope and body decoding (issue 15: strict JSON
// decoding was a third of an audit, reading each body six times over:
// validated, decoded and re-encoded as the envelope's raw body, then again
// as a body).
//
// It reads the one byte form Salvo writes and nothing else: fields in
// their declared order, an omitempty field only when it is not empty,
// strings of printable ASCII without escapes, integers in their shortest
// decimal form, hex in lower case, base64 that re-encodes to itself, and
// no space outside strings. On any other byte it gives up, and the caller
// decodes the input with decodeCanonical as before, which accepts or
// refuses it and says why. So the fast path decides nothing: what it
// accepts is exactly its own re-encoding, the value it returns is the one
// encoding/json decodes (FuzzFastDecode checks both against the slow path),
// and every refusal, with its wording, still comes from the slow path.

// fastReader walks one input in Salvo's one form. Each method consumes
// what it reads and reports whether the input had it; the first false
// abandons the fast path, so no method needs to restore the position.
type fastReader struct {
	b []byte
	i int
	// Arenas for what a body holds many small pieces of (issue 15: the
	// Merkle paths of a volley's openings were a fifth of an audit's
	// allocations, each path grown one digest at a time): the digests of
	// every path and salt list and the bytes of every hex value are cut
	// from a few shared blocks instead of one allocation each. Each piece
	// is cut with its capacity at its length, so appending to one copies
	// it rather than writing over its neighbour.
	digs   []Digest
	salts  []Salt
	bytes  []byte
	listed []Digest // a digest list as it is read, before it is cut
	// pathBuf holds listed while it is no longer than a path of the
	// largest vector, so that reading one grows nothing.
	pathBuf [maxDepth]Digest
	name    string // the last name read (nameString)
}

// arenaBlock is the smallest block an arena allocates: a body's pieces
// are small (a one-byte cell value, a path of seven digests).
const arenaBlock = 64

// cut returns n elements from the free end of arena *a, allocating a new
// block when it is short; the piece's capacity is its length. An empty
// piece is empty but not nil, as encoding/json decodes "" and [].
func cut[T any](a *[]T, n int) []T {
	if n == 0 {
		return []T{}
	}
	if cap(*a)-len(*a) < n {
		*a = make([]T, 0, max(n, arenaBlock))
	}
	at := len(*a)
	*a = (*a)[:at+n]
	return (*a)[at : at+n : at+n]
}

// lit consumes s.
func (r *fastReader) lit(s string) bool {
	if len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		return false
	}
	r.i += len(s)
	return true
}

// peek reports whether s comes next, without consuming it.
func (r *fastReader) peek(s string) bool {
	return len(r.b)-r.i >= len(s) && string(r.b[r.i:r.i+len(s)]) == s
}

// plainByte reports whether encoding/json writes c, inside a string, as
// itself (escapeHTML off): printable ASCII but the quote and the backslash.
func plainByte(c byte) bool { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' }

// rawString consumes a quoted string of plain bytes and returns its
// content, which aliases the input.
func (r *fastReader) rawString() ([]byte, bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return nil, false
	}
	start := r.i + 1
	for j := start; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '"':
			r.i = j + 1
			return r.b[start:j], true
		case !plainByte(c):
			return nil, false
		}
	}
	return nil, false
}

// str consumes a string.
func (r *fastReader) str() (string, bool) {
	s, ok := r.rawString()
	return string(s), ok
}

// nameString consumes a string that is mostly the same as the last one
// read this way (the slot names of a body's openings, all "grid" in a
// volley): it allocates only when the name changes.
func (r *fastReader) nameString() (string, bool) {
	s, ok := r.rawString()
	if !ok {
		return "", false
	}
	if string(s) != r.name {
		r.name = string(s)
	}
	return r.name, true
}

// inputKinds are the kinds a fastReader returns without allocating.
var inputKinds = [...]InputKind{InHello, InCommit, InMove, InOpen, InShare, InChoose, InReveal, InResign, InDeckKey, InShuffle, InUnmask, InRelease, InRemove}

// kind consumes an input's kind.
func (r *fastReader) kind() (InputKind, bool) {
	s, ok := r.rawString()
	for _, k := range inputKinds {
		if string(s) == string(k) {
			return k, ok
		}
	}
	return InputKind(s), ok
}

// field consumes `"name":` with a leading comma unless first.
func (r *fastReader) field(name string, first bool) bool {
	if !first && !r.lit(",") {
		return false
	}
	return r.lit(`"`) && r.lit(name) && r.lit(`":`)
}

// optField consumes `,"name":` if it comes next: an omitempty field is
// either absent or, in the one form, not empty.
func (r *fastReader) optField(name string) bool {
	if !r.peek(`,"`) || !bytes.HasPrefix(r.b[r.i+2:], []byte(name)) || !bytes.HasPrefix(r.b[r.i+2+len(name):], []byte(`":`)) {
		return false
	}
	r.i += len(name) + 4
	return true
}

// number consumes an integer in its shortest decimal form (a minus sign
// only before a non-zero digit) and returns its digits.
func (r *fastReader) number() ([]byte, bool) {
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	d := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	switch {
	case r.i == d, r.b[d] == '0' && (r.i-d > 1 || d > start):
		return nil, false
	case r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E'):
		return nil, false
	}
	return r.b[start:r.i], true
}

// int consumes an int; nonZero for an omitempty field.
func (r *fastReader) int(nonZero bool) (int, bool) {
	s, ok := r.number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(s), 10, strconv.IntSize)
	return int(n), err == nil && (n != 0 || !nonZero)
}

// uint64 consumes a uint64.
func (r *fastReader) uint64() (uint64, bool) {
	s, ok := r.number()
	if !ok || s[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(s), 10, 64)
	return n, err == nil
}

// nibble maps a lower-case hex digit to its value, and every other byte,
// upper-case digits included (hex.Decode takes them, Salvo never writes
// them), to 0xff.
var nibble = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	return t
}()

// hexString consumes a quoted string of lower-case hex of whole bytes,
// the only hex Salvo writes, and returns its content.
func (r *fastReader) hexString() ([]byte, bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return nil, false
	}
	start := r.i + 1
	j := start
	for j < len(r.b) && nibble[r.b[j]] != 0xff {
		j++
	}
	if j >= len(r.b) || r.b[j] != '"' || (j-start)%2 != 0 {
		return nil, false
	}
	r.i = j + 1
	return r.b[start:j], true
}

// decodeHex decodes s, lower-case hex that hexString read, into dst.
func decodeHex(dst, s []byte) {
	for i := range dst {
		dst[i] = nibble[s[2*i]]<<4 | nibble[s[2*i+1]]
	}
}

// digest consumes a Digest (or Salt) as its TextUnmarshaler reads it:
// exactly 64 lower-case hex digits, decoded as they are read (the digests
// of a volley's paths are most of its bytes).
func (r *fastReader) digest() (d Digest, ok bool) {
	const n = 2 * len(d)
	if len(r.b)-r.i < n+2 || r.b[r.i] != '"' || r.b[r.i+1+n] != '"' {
		return d, false
	}
	s := r.b[r.i+1 : r.i+1+n]
	var bad byte
	for i := range d {
		hi, lo := nibble[s[2*i]], nibble[s[2*i+1]]
		bad |= hi | lo
		d[i] = hi<<4 | lo
	}
	if bad&0xf0 != 0 { // a byte that is no lower-case hex digit maps to 0xff
		return d, false
	}
	r.i += n + 2
	return d, true
}

// hexValue consumes a Hex as its UnmarshalText reads it: never nil.
func (r *fastReader) hexValue() (Hex, bool) {
	s, ok := r.hexString()
	if !ok || len(s) > 2*maxValue {
		return nil, false
	}
	out := cut(&r.bytes, len(s)/2)
	decodeHex(out, s)
	return out, true
}

// base64Value consumes a []byte as encoding/json reads it (never nil),
// only in the one text that encodes it; nonEmpty for an omitempty field.
func (r *fastReader) base64Value(nonEmpty bool) ([]byte, bool) {
	s, ok := r.rawString()
	if !ok || (nonEmpty && len(s) == 0) {
		return nil, false
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(out, s)
	if err != nil || base64.StdEncoding.EncodedLen(n) != len(s) {
		return nil, false
	}
	out = out[:n]
	var buf [512]byte
	enc := buf[:0]
	if len(s) > len(buf) {
		enc = make([]byte, 0, len(s))
	}
	enc = base64.StdEncoding.AppendEncode(enc, out)
	return out, bytes.Equal(enc, s)
}

// list consumes a JSON array whose elements item reads. It returns nil
// for null (nullable: a field without omitempty, where nil is written so),
// and a non-nil empty slice for [], as encoding/json decodes them. An
// omitempty field is read with nonEmpty, where neither is the one form.
func list[T any](r *fastReader, nonEmpty, nullable bool, item func() (T, bool)) ([]T, bool) {
	if nullable && !nonEmpty && r.lit("null") {
		return nil, true
	}
	if !r.lit("[") {
		return nil, false
	}
	// The elements gather on the stack and are copied out once: a list
	// grown from empty allocates at every doubling.
	var buf [8]T
	out := buf[:0]
	for !r.lit("]") {
		if len(out) > 0 && !r.lit(",") {
			return nil, false
		}
		v, ok := item()
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return append([]T{}, out...), !nonEmpty || len(out) > 0
}

// digests is list(r, false, true, r.digest) for the digests of a path or
// the salts of a full opening, cut from the reader's arena.
func digests[T ~[32]byte](r *fastReader, arena *[]T) ([]T, bool) {
	if r.lit("null") {
		return nil, true
	}
	if !r.lit("[") {
		return nil, false
	}
	if r.listed == nil {
		r.listed = r.pathBuf[:0]
	}
	r.listed = r.listed[:0]
	for !r.lit("]") {
		if len(r.listed) > 0 && !r.lit(",") {
			return nil, false
		}
		d, ok := r.digest()
		if !ok {
			return nil, false
		}
		r.listed = append(r.listed, d)
	}
	out := cut(arena, len(r.listed))
	for i, d := range r.listed {
		out[i] = T(d)
	}
	return out, true
}

// value consumes any JSON value written compactly (a move's raw JSON, an
// envelope's raw body), for which encoding/json's compaction, the one form,
// changes nothing, and returns its bytes.
func (r *fastReader) value() ([]byte, bool) {
	start := r.i
	if !r.skipValue(0) {
		return nil, false
	}
	return r.b[start:r.i], true
}

// maxFastDepth bounds the nesting the fast path follows; deeper input goes
// to the slow path, which has its own limit.
const maxFastDepth = 64

func (r *fastReader) skipValue(depth int) bool {
	if r.i >= len(r.b) || depth > maxFastDepth {
		return false
	}
	switch c := r.b[r.i]; {
	case c == '{':
		r.i++
		for n := 0; !r.lit("}"); n++ {
			if n > 0 && !r.lit(",") {
				return false
			}
			if _, ok := r.rawString(); !ok || !r.lit(":") || !r.skipValue(depth+1) {
				return false
			}
		}
		return true
	case c == '[':
		r.i++
		for n := 0; !r.lit("]"); n++ {
			if n > 0 && !r.lit(",") {
				return false
			}
			if !r.skipValue(depth + 1) {
				return false
			}
		}
		return true
	case c == '"':
		_, ok := r.rawString()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return r.jsonNumber()
	}
	return r.lit("true") || r.lit("false") || r.lit("null")
}

// jsonNumber consumes a number by JSON's grammar.
func (r *fastReader) jsonNumber() bool {
	digits := func() int {
		n := 0
		for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
			r.i, n = r.i+1, n+1
		}
		return n
	}
	r.lit("-")
	if r.lit("0") {
		if r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
			return false
		}
	} else if digits() == 0 {
		return false
	}
	if r.lit(".") && digits() == 0 {
		return false
	}
	if r.lit("e") || r.lit("E") {
		if !r.lit("+") {
			r.lit("-")
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// end reports whether the whole input was read.
func (r *fastReader) end() bool { return r.i == len(r.b) }

// fastEnvelope decodes an envelope in its one form, or reports false.
func fastEnvelope(b []byte) (*Envelope, bool) {
	e, _, ok := readEnvelope(b, false)
	if !ok {
		return nil, false
	}
	// The body is copied, as encoding/json copies a RawMessage: the line's
	// buffer may be reused.
	e.Body = append([]byte(nil), e.Body...)
	return e, true
}

// fastLine decodes a transcript line that the reader owns (nothing writes
// to it afterwards) as DecodeEnvelope and then DecodeBody decode it, when
// both are in their one form, or reports false. It reads the body once,
// where the envelope holds it, and the envelope's Body is the line's own
// bytes, not a copy: walking a body to find its end, copying it and then
// reading it was a tenth of an audit (issue 15). It also returns the
// decoded signature, which DecodeEnvelope only checks.
func fastLine(line []byte) (*Envelope, *Body, []byte, bool) {
	if len(line) > MaxEnvelope {
		return nil, nil, nil, false
	}
	e, body, ok := readEnvelope(line, true)
	if !ok {
		return nil, nil, nil, false
	}
	sig, ok := canonicalSig(line[len(line)-len(e.Sig)-2 : len(line)-2])
	return e, body, sig, ok
}

// canonicalSig is canonicalBase64 for the text s of a signature's 64
// bytes (the line's bytes of Sig, which its one form writes last, before
// `"}`), with one allocation instead of four: false for anything else,
// which canonicalBase64 then judges.
func canonicalSig(s []byte) ([]byte, bool) {
	const size = 64
	if len(s) != base64.StdEncoding.EncodedLen(size) {
		return nil, false
	}
	sig := make([]byte, size)
	var enc [88]byte
	if n, err := base64.StdEncoding.Decode(sig, s); err != nil || n != size {
		return nil, false
	}
	base64.StdEncoding.Encode(enc[:], sig)
	return sig, bytes.Equal(enc[:], s)
}

// readEnvelope reads an envelope in its one form. Its Body is the bytes of
// the line it was read from; withBody also reads the body, in its one
// form, else it only finds its end.
func readEnvelope(b []byte, withBody bool) (*Envelope, *Body, bool) {
	r := &fastReader{b: b}
	var e Envelope
	// The match, sender and previous message stand close together at the
	// line's start: one string holds the three (one allocation, not three).
	var at [3][2]int // where each one's text starts and ends in b
	str := func(n int) bool {
		at[n][0] = r.i + 1
		_, ok := r.rawString()
		at[n][1] = r.i - 1
		return ok
	}
	ok := r.lit("{") && r.field("match", true) && str(0)
	if ok = ok && r.field("seq", false); ok {
		e.Seq, ok = r.uint64()
	}
	ok = ok && r.field("from", false) && str(1) && r.field("prev", false) && str(2)
	if ok {
		head, from := string(b[at[0][0]:at[2][1]]), at[0][0]
		e.Match, e.From, e.Prev = head[:at[0][1]-from], head[at[1][0]-from:at[1][1]-from], head[at[2][0]-from:]
	}
	var body *Body
	if ok = ok && r.field("body", false) && r.peek("{"); ok {
		start := r.i
		if withBody {
			body, ok = r.body()
		} else {
			ok = r.skipValue(0)
		}
		e.Body = b[start:r.i:r.i]
	}
	if ok = ok && r.field("sig", false); ok {
		e.Sig, ok = r.str()
	}
	if !ok || !r.lit("}") || !r.end() {
		return nil, nil, false
	}
	return &e, body, true
}

// fastBody decodes a body in its one form, or reports false.
func fastBody(b []byte) (*Body, bool) {
	r := &fastReader{b: b}
	body, ok := r.body()
	return body, ok && r.end()
}

// body reads a Body in its one form.
func (r *fastReader) body() (*Body, bool) {
	var body Body
	ok := r.lit("{") && r.field("inputs", true)
	if ok {
		body.Inputs, ok = list(r, true, false, r.input)
	}
	if ok = ok && r.field("state", false); ok {
		body.State, ok = r.str()
	}
	if !ok || !r.lit("}") {
		return nil, false
	}
	return &body, true
}

// input reads one WireInput, its omitempty fields in their declared order.
func (r *fastReader) input() (in WireInput, ok bool) {
	if !r.lit("{") || !r.field("t", true) {
		return in, false
	}
	in.T, ok = r.kind()
	optStr := func(name string, dst *string) {
		if ok && r.optField(name) {
			*dst, ok = r.str()
			ok = ok && *dst != ""
		}
	}
	optInt := func(name string, dst *int) {
		if ok && r.optField(name) {
			*dst, ok = r.int(true)
		}
	}
	optBytes := func(name string, dst *[]byte) {
		if ok && r.optField(name) {
			*dst, ok = r.base64Value(true)
		}
	}
	if ok && r.optField("name") {
		in.Name, ok = r.nameString()
		ok = ok && in.Name != ""
	}
	optInt("size", &in.Size)
	optStr("root", &in.Root)
	if ok && r.optField("move") {
		var mv []byte
		mv, ok = r.value()
		in.Move = append([]byte(nil), mv...)
	}
	if ok && r.optField("open") {
		in.Open, ok = list(r, true, false, r.opening)
	}
	if ok && r.optField("full") {
		in.Full, ok = list(r, true, false, r.fullVector)
	}
	optInt("roll", &in.Roll)
	optStr("link", &in.Link)
	optStr("next", &in.Next)
	optStr("tip", &in.Tip)
	optInt("links", &in.Links)
	optBytes("key", &in.Key)
	optBytes("deck", &in.Deck)
	optBytes("proof", &in.Proof)
	if ok && r.optField("shares") {
		in.Shares, ok = list(r, true, false, func() ([]byte, bool) { return r.base64Value(false) })
	}
	// Gone and Left (a removal) are rare: the slow path reads them.
	return in, ok && r.lit("}")
}

// opening reads one Opening (no field of it is omitempty).
func (r *fastReader) opening() (o Opening, ok bool) {
	if !r.lit("{") || !r.field("slot", true) || !r.lit("{") || !r.field("owner", true) {
		return o, false
	}
	var owner int
	owner, ok = r.int(false)
	o.Slot.Owner = engine.Seat(owner)
	if ok = ok && r.field("name", false); ok {
		o.Slot.Name, ok = r.nameString()
	}
	if ok = ok && r.field("index", false); ok {
		o.Slot.Index, ok = r.int(false)
	}
	if ok = ok && r.lit("}") && r.field("value", false); ok {
		o.Value, ok = r.hexValue()
	}
	if ok = ok && r.field("salt", false); ok {
		var d Digest
		d, ok = r.digest()
		o.Salt = Salt(d)
	}
	if ok = ok && r.field("path", false); ok {
		o.Path, ok = digests(r, &r.digs)
	}
	return o, ok && r.lit("}")
}

// fullVector reads one FullVector (no field of it is omitempty).
func (r *fastReader) fullVector() (f FullVector, ok bool) {
	if !r.lit("{") || !r.field("name", true) {
		return f, false
	}
	f.Name, ok = r.nameString()
	if ok = ok && r.field("values", false); ok {
		f.Values, ok = list(r, false, true, r.hexValue)
	}
	if ok = ok && r.field("salts", false); ok {
		f.Salts, ok = digests(r, &r.salts)
	}
	return f, ok && r.lit("}")
}
