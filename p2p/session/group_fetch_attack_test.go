package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// Attacks on the fetch protocol (/salvo/fetch/1), both ways: a stranger
// or a greedy player asking, and a responder answering falsely.

// fetchFixture is three players' hosts (and a stranger's) and a match
// whose transcript holds a chain of signed envelopes, as if played.
type fetchFixture struct {
	hosts    []*p2p.Host
	keys     []crypto.PrivKey
	stranger *p2p.Host
	strKey   crypto.PrivKey
	header   fairness.Header
	envs     []*fairness.Envelope
	path     string
}

// testBody is a body the fetch checks never read.
var testBody = json.RawMessage(`{"inputs":[{"t":"resign"}],"state":"` + strings.Repeat("0", 64) + `"}`)

func newFetchFixture(t *testing.T, messages int) *fetchFixture {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := &fetchFixture{}
	var players []fairness.Player
	for i := range 4 {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := p2p.New(ctx, p2p.Config{Key: k, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, Name: fmt.Sprintf("peer-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		if i == 3 {
			f.stranger, f.strKey = h, k
			break
		}
		f.hosts, f.keys = append(f.hosts, h), append(f.keys, k)
		nonce, err := fairness.NewNonce()
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, fairness.Player{Peer: h.ID().String(), Name: fmt.Sprintf("bot-%c", 'a'+i), Nonce: nonce})
	}
	for _, h := range append(f.hosts[1:], f.stranger) {
		for _, to := range f.hosts {
			if h != to {
				if _, err := h.Connect(ctx, to.Invite()); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	spec, _ := games.Spec("air")
	h, err := fairness.NewHeader(spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	f.header = h
	f.path = filepath.Join(t.TempDir(), "match.jsonl")
	tw, err := fairness.CreateTranscript(f.path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	prev := h.Match
	for i := 1; i <= messages; i++ {
		e := f.sign(t, f.keys[i%3], h.Match, uint64(i), prev)
		if err := tw.Envelope(e); err != nil {
			t.Fatal(err)
		}
		f.envs = append(f.envs, e)
		prev = hexHash(e)
	}
	return f
}

// sign makes a signed envelope.
func (f *fetchFixture) sign(t *testing.T, key crypto.PrivKey, match string, seq uint64, prev string) *fairness.Envelope {
	t.Helper()
	e := &fairness.Envelope{Match: match, Seq: seq, Prev: prev, Body: testBody}
	if err := e.Sign(key); err != nil {
		t.Fatal(err)
	}
	return e
}

// serve has player seat answer fetches from the fixture's transcript.
func (f *fetchFixture) serve(seat int) { serveFetch(f.hosts[seat].Libp2p(), f.header, f.path, nil) }

// asker is the asking side of seat (the stranger for seat -1); what it
// delivers is collected.
func (f *fetchFixture) asker(seat int) (*catchUp, *[]fetched) {
	h, s := f.stranger, engine.NoSeat
	if seat >= 0 {
		h, s = f.hosts[seat], engine.Seat(seat)
	}
	var got []fetched
	var mu sync.Mutex
	c := &catchUp{m: &GroupMatch{Header: f.header, Seat: s}, h: h.Libp2p(), keys: map[string]crypto.PubKey{}, log: slog.New(slog.DiscardHandler),
		away: func() map[engine.Seat]time.Time { return nil },
		deliver: func(b []byte, a peer.ID) bool {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, fetched{frame: b, signer: a})
			return true
		}}
	for i, k := range f.keys {
		c.keys[f.hosts[i].ID().String()] = k.GetPublic()
	}
	return c, &got
}

// fake has player seat answer every fetch with frames, whatever it asks.
func (f *fetchFixture) fake(seat int, frames func(req fetchFrame) [][]byte) {
	f.hosts[seat].Libp2p().SetStreamHandler(FetchProtocol, func(st network.Stream) {
		defer st.Close()
		b, err := p2p.ReadFrame(st, p2p.MaxFirstFrame)
		if err != nil {
			return
		}
		req, _ := decodeFetchFrame(b)
		for _, fr := range frames(req) {
			if err := writeRawFrame(st, fr); err != nil {
				return
			}
		}
	})
}

// writeRawFrame writes a frame of any length (WriteFrame refuses one
// over p2p.MaxFrame, which is what a hostile responder would send).
func writeRawFrame(st network.Stream, b []byte) error {
	if len(b) <= p2p.MaxFrame {
		return p2p.WriteFrame(st, b)
	}
	var hdr [10]byte
	n := 0
	for x := uint64(len(b)); ; n++ {
		hdr[n] = byte(x) | 0x80
		if x >>= 7; x == 0 {
			hdr[n] &= 0x7f
			n++
			break
		}
	}
	_, err := st.Write(append(hdr[:n], b...))
	return err
}

func done(seq uint64) []byte {
	b, _ := json.Marshal(fetchFrame{T: tDone, Seq: seq})
	return b
}

// A player gets every envelope it asks for, checked; a stranger's stream
// is reset before a byte of it is read, and a player asking for a match
// this peer does not serve is declined.
func TestFetchAnswersPlayersOnly(t *testing.T) {
	f := newFetchFixture(t, 10)
	f.serve(0)
	ctx := context.Background()
	c, _ := f.asker(1)
	envs, err := c.ask(ctx, f.hosts[0].ID(), 1)
	if err != nil || len(envs) != 10 {
		t.Fatalf("a player asking: %d envelopes, %v", len(envs), err)
	}
	s, _ := f.asker(-1)
	if envs, err := s.ask(ctx, f.hosts[0].ID(), 1); err == nil || len(envs) != 0 {
		t.Fatalf("a stranger asking got %d envelopes, err %v", len(envs), err)
	}
	other, _ := f.asker(2)
	other.m = &GroupMatch{Header: f.header, Seat: 2}
	other.m.Header.Match = strings.Repeat("ab", 32)
	if _, err := other.ask(ctx, f.hosts[0].ID(), 1); err == nil || !strings.Contains(err.Error(), "declined") {
		t.Fatalf("asking for a match not served: %v", err)
	}
}

// rawAsk sends one request frame as is and returns the answer's frames.
func rawAsk(t *testing.T, from *p2p.Host, to peer.ID, req []byte) ([][]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), FetchTimeout)
	defer cancel()
	st, err := from.Libp2p().NewStream(ctx, to, FetchProtocol)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := writeRawFrame(st, req); err != nil {
		return nil, err
	}
	var out [][]byte
	for {
		b, err := p2p.ReadFrame(st, 0)
		if err != nil {
			return out, err
		}
		out = append(out, b)
		if strings.HasPrefix(string(b), `{"t":`) {
			return out, nil
		}
	}
}

// A player asking for a huge range gets MaxFetchBatch envelopes and the
// last number held; a request over the first-frame bound or malformed
// gets its stream reset, unanswered.
func TestFetchBoundsHugeRanges(t *testing.T) {
	f := newFetchFixture(t, MaxFetchBatch+40)
	f.serve(0)
	huge, _ := json.Marshal(fetchFrame{T: tFetch, Match: f.header.Match, From: 1, To: 1 << 62})
	frames, err := rawAsk(t, f.hosts[1], f.hosts[0].ID(), huge)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != MaxFetchBatch+1 || string(frames[len(frames)-1]) != string(done(MaxFetchBatch+40)) {
		t.Fatalf("a huge range: %d frames, last %s", len(frames), frames[len(frames)-1])
	}
	i := 0
	for name, req := range map[string][]byte{
		"oversized": []byte(`{"t":"fetch","match":"` + f.header.Match + `","from":1,"to":2,"reason":"` + strings.Repeat("x", p2p.MaxFirstFrame) + `"}`),
		"backwards": []byte(`{"t":"fetch","match":"` + f.header.Match + `","from":9,"to":2}`),
		"from zero": []byte(`{"t":"fetch","match":"` + f.header.Match + `","to":2}`),
		"unknown":   []byte(`{"t":"fetch","match":"` + f.header.Match + `","from":1,"to":2,"x":1}`),
		"no match":  []byte(`{"t":"fetch","match":"../../etc/passwd","from":1,"to":2}`),
	} {
		// Two players take turns, within FetchBurst each: a refusal is the
		// request's own.
		i++
		if frames, err := rawAsk(t, f.hosts[1+i%2], f.hosts[0].ID(), req); err == nil || len(frames) != 0 {
			t.Errorf("%s request: %d frames answered, err %v", name, len(frames), err)
		}
	}
	// Each asked within its burst: a well-formed request is still answered.
	if frames, err := rawAsk(t, f.hosts[2], f.hosts[0].ID(), huge); err != nil || len(frames) != MaxFetchBatch+1 {
		t.Fatalf("a good request after the bad ones: %d frames, %v", len(frames), err)
	}
}

// A player flooding a peer with requests has all but FetchBurst of them
// refused unread, and another player is still answered.
func TestFetchFloodIsRefused(t *testing.T) {
	f := newFetchFixture(t, 3)
	f.serve(0)
	ctx := context.Background()
	c, _ := f.asker(1)
	answered := 0
	for range 20 {
		if _, err := c.ask(ctx, f.hosts[0].ID(), 1); err == nil {
			answered++
		}
	}
	if answered < 1 || answered > FetchBurst+1 {
		t.Fatalf("%d of 20 requests at once answered, want 1 to %d", answered, FetchBurst+1)
	}
	other, _ := f.asker(2)
	if envs, err := other.ask(ctx, f.hosts[0].ID(), 1); err != nil || len(envs) != 3 {
		t.Fatalf("another player during the flood: %d envelopes, %v", len(envs), err)
	}
}

// A responder can send nothing false: forged, reordered, skipped,
// unchained, foreign or oversized envelopes, too many of them, or a done
// frame that withholds what it holds, each fail the answer; what passed
// every check before it is kept (it is signed and chained), nothing else.
func TestFetchRefusesFalseAnswers(t *testing.T) {
	f := newFetchFixture(t, 80)
	e := func(i int) []byte { return encode(t, f.envs[i-1]) }
	forged := *f.envs[0]
	forged.Sig = f.envs[1].Sig
	unchained := f.sign(t, f.keys[2], f.header.Match, 2, strings.Repeat("1", 64))
	foreign := f.sign(t, f.keys[1], strings.Repeat("cd", 32), 1, strings.Repeat("cd", 32))
	stranger := f.sign(t, f.strKey, f.header.Match, 1, f.header.Match)
	all := func(n int) [][]byte {
		var out [][]byte
		for i := 1; i <= n; i++ {
			out = append(out, e(i))
		}
		return out
	}
	cases := []struct {
		name   string
		frames [][]byte
		keep   int
	}{
		{"forged signature", [][]byte{encode(t, &forged), done(80)}, 0},
		{"reordered", [][]byte{e(1), e(3), e(2), done(80)}, 1},
		{"skipped first", [][]byte{e(2), e(3), done(80)}, 0},
		{"unchained", [][]byte{e(1), encode(t, unchained), done(80)}, 1},
		{"another match", [][]byte{encode(t, foreign), done(80)}, 0},
		{"no player", [][]byte{encode(t, stranger), done(80)}, 0},
		{"oversized", [][]byte{e(1), make([]byte, fairness.MaxEnvelope+1)}, 1},
		{"too many", append(all(MaxFetchBatch+1), done(80)), MaxFetchBatch},
		{"withholds", [][]byte{done(80)}, 0},
		{"done below sent", [][]byte{e(1), e(2), done(1)}, 2},
		{"garbage", [][]byte{[]byte("\x00\x01 not json"), done(80)}, 0},
		{"no done", [][]byte{e(1)}, 1},
	}
	c, _ := f.asker(1)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.fake(0, func(fetchFrame) [][]byte { return tc.frames })
			envs, err := c.ask(context.Background(), f.hosts[0].ID(), 1)
			if !errors.Is(err, errFetchAnswer) {
				t.Fatalf("answer taken: %v", err)
			}
			if len(envs) != tc.keep {
				t.Fatalf("%d envelopes kept, want %d (%v)", len(envs), tc.keep, err)
			}
			for i, x := range envs {
				if string(x.frame) != string(e(i+1)) {
					t.Fatalf("kept envelope %d is not the match's", i+1)
				}
			}
		})
	}
}

// A responder that withholds, or answers falsely, costs one exchange: the
// asker takes the missed envelopes from the next player.
func TestFetchAsksAnotherPlayer(t *testing.T) {
	for name, answer := range map[string]func(fetchFrame) [][]byte{
		"withholds": func(fetchFrame) [][]byte { return [][]byte{done(0)} },
		"lies":      func(fetchFrame) [][]byte { return [][]byte{[]byte(`{"match":"x"}`)} },
		"hangs up":  func(fetchFrame) [][]byte { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFetchFixture(t, 12)
			f.fake(0, answer)
			f.serve(2)
			c, got := f.asker(1)
			if n := c.round(context.Background(), 5); n != 8 {
				t.Fatalf("a round delivered %d envelopes, want 8", n)
			}
			for i, x := range *got {
				if string(x.frame) != string(encode(t, f.envs[4+i])) || x.signer.String() != f.envs[4+i].From {
					t.Fatalf("delivered envelope %d is not message %d under its signer", i, 5+i)
				}
			}
		})
	}
}

// A player that publishes a validly signed message numbered far ahead
// makes an honest peer ask the others about the gap once, not every
// FetchGap; the idle backoff takes over from there.
func TestFetchGapAskedOnce(t *testing.T) {
	f := newFetchFixture(t, 3)
	for _, s := range []int{0, 2} {
		f.fake(s, func(fetchFrame) [][]byte { return [][]byte{done(0)} })
	}
	c, _ := f.asker(1)
	c.seen.Store(1 << 40)
	c.waiting.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), FetchIdle-200*time.Millisecond)
	defer cancel()
	c.run(ctx)
	if n := c.rounds.Load(); n != 1 {
		t.Fatalf("%d rounds of asking about one gap within %v, want 1", n, FetchIdle-200*time.Millisecond)
	}
}

// A player far behind (a restart after many messages) takes back what it
// missed in consecutive answers at once, not one answer per FetchIdle.
func TestFetchFarBehindTakesAllAtOnce(t *testing.T) {
	const missed = 2*MaxFetchBatch + 22
	f := newFetchFixture(t, missed)
	f.serve(0)
	c, got := f.asker(1)
	c.m.eager = true
	c.waiting.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c.run(ctx)
	if len(*got) != missed {
		t.Fatalf("took back %d of %d missed messages within a second", len(*got), missed)
	}
}
