// Package hostiletest makes the hostile inputs that the printers' tests of
// several packages (the CLI, the interface) share. Import it from _test.go
// files only.
package hostiletest

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
	"github.com/salvo-game/salvo/p2p"
)

// EvilName is a display name an older Salvo let through the handshake: it
// moves the cursor up, erases the line (where the real "violation" verdict
// was printed), prints a fake clean verdict, then reverses the rest of the
// line with a bidi override and hides it from a C1-aware terminal too.
const EvilName = "\x1b[1A\x1b[2K\rclean: seat 1 won\u202e\u2066\u009b2K\x07"

// CraftedNameTranscript plays a U-Build match between two bots straight
// through the referees (no handshake, as a peer running an older version
// would), seat 1 named EvilName and cheating, and returns the path of seat
// 0's transcript: a file whose audit is a violation by the evil-named seat.
func CraftedNameTranscript(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	entry, ok := games.Lookup("ubuild")
	if !ok {
		t.Fatal("no ubuild game")
	}
	var keys [2]crypto.PrivKey
	players := make([]fairness.Player, 2)
	for s := range keys {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		nonce, _ := fairness.NewNonce()
		keys[s], players[s] = k, fairness.Player{Peer: id.String(), Name: "ann", Nonce: nonce}
	}
	players[1].Name = EvilName
	h, err := fairness.NewHeader(entry.Spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	k, err := cheat.Lookup("ubuild", "wrong-ship")
	if err != nil {
		t.Fatal(err)
	}
	ch, wrap := k.Peer()
	dir := t.TempDir()
	ends := [2]*fairnesstest.PipeEnd{}
	ends[0], ends[1] = fairnesstest.Pipe()
	var wg sync.WaitGroup
	for s := range 2 {
		agent, _ := games.Bot("ubuild", "random", rand.New(rand.NewPCG(7, uint64(s))))
		cfg := fairness.Config{Seat: engine.Seat(s), Key: keys[s], Agent: agent, Transport: ends[s], Timeout: 10 * time.Second}
		if s == 1 {
			cfg.Hooks = ch.Hooks()
			if wrap != nil {
				cfg.Agent = wrap(agent)
			}
		}
		fm, err := fairness.NewMatch(entry.Spec, h)
		if err != nil {
			t.Fatal(err)
		}
		tw, err := fairness.CreateTranscript(filepath.Join(dir, []string{"a.jsonl", "b.jsonl"}[s]), h)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Match, cfg.Transcript = fm, tw
		ref, err := fairness.NewReferee(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer tw.Close()
			_, _ = ref.Run(ctx)
			ends[s].Close()
		}()
	}
	wg.Wait()
	return filepath.Join(dir, "a.jsonl")
}

// WaitReset waits (10 s at most) for the other side to end a stream the
// test wrote a hostile frame on, and fails if it is still open.
func WaitReset(t testing.TB, s interface {
	Read([]byte) (int, error)
	SetReadDeadline(time.Time) error
}) {
	t.Helper()
	_ = s.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := s.Read(make([]byte, 1)); err == nil {
		t.Fatal("the hostile stream was answered, not ended")
	} else if os.IsTimeout(err) {
		t.Fatal("the hostile stream is still open after 10 s")
	}
}

// EvilPeer starts a loopback host for the attacker, closed at the end of
// the test, and connects it to the host an invite code names, whose ID it
// returns.
func EvilPeer(t testing.TB, ctx context.Context, code string) (*p2p.Host, peer.ID) {
	t.Helper()
	evil, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { evil.Close() })
	inv, err := p2p.ParseInvite(code)
	if err != nil {
		t.Fatal(err)
	}
	target, err := evil.ConnectInvite(ctx, inv)
	if err != nil {
		t.Fatal(err)
	}
	return evil, target
}
