package fairness_test

import (
	"context"
	"io"
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
)

// hub is an in-memory group transport that delivers every frame to every
// other member after a random delay, so frames often arrive out of order,
// as on a pubsub topic.
type hub struct {
	mu      sync.Mutex
	members []*member
	closed  chan struct{}
}

type member struct {
	h    *hub
	id   string
	in   chan [2]string
	rand *rand.Rand
}

func (m *member) Send(ctx context.Context, b []byte) error {
	m.h.mu.Lock()
	defer m.h.mu.Unlock()
	for _, o := range m.h.members {
		if o == m {
			continue
		}
		delay := time.Duration(m.rand.IntN(3000)) * time.Microsecond
		go func(o *member, b string) {
			time.Sleep(delay)
			select {
			case o.in <- [2]string{b, m.id}:
			case <-m.h.closed:
			}
		}(o, string(b))
	}
	return nil
}

func (m *member) Recv(ctx context.Context) ([]byte, error) {
	b, _, err := m.RecvFrom(ctx)
	return b, err
}

func (m *member) RecvFrom(ctx context.Context) ([]byte, string, error) {
	select {
	case f := <-m.in:
		return []byte(f[0]), f[1], nil
	case <-m.h.closed:
		return nil, "", io.EOF
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
}

// Three and four referees play Mission Command Air over a reordering group
// transport, shared deck and joint dice included, and every transcript
// audits clean and identical.
func TestGroupMatchWithSharedDeck(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	for _, n := range []int{3, 4} {
		entry, _ := games.Lookup("air")
		keys := make([]crypto.PrivKey, n)
		players := make([]fairness.Player, n)
		for i := range keys {
			keys[i], _, _ = crypto.GenerateEd25519Key(nil)
			id, _ := peer.IDFromPrivateKey(keys[i])
			nonce, _ := fairness.NewNonce()
			players[i] = fairness.Player{Peer: id.String(), Name: "bot", Nonce: nonce}
		}
		h, err := fairness.NewHeader(entry.Spec, "ffa", players)
		if err != nil {
			t.Fatal(err)
		}
		hb := &hub{closed: make(chan struct{})}
		for i := range keys {
			hb.members = append(hb.members, &member{h: hb, id: players[i].Peer, in: make(chan [2]string, 256), rand: rand.New(rand.NewPCG(uint64(i), 9))})
		}
		dir := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		results := make([]*fairness.Result, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			m, err := fairness.NewMatch(entry.Spec, h)
			if err != nil {
				t.Fatal(err)
			}
			tw, err := fairness.CreateTranscript(filepath.Join(dir, string(rune('a'+i))+".jsonl"), h)
			if err != nil {
				t.Fatal(err)
			}
			agent := entry.Bots["strong"](rand.New(rand.NewPCG(uint64(i), 1)))
			ref, err := fairness.NewReferee(fairness.Config{Match: m, Seat: engine.Seat(i), Key: keys[i], Agent: agent, Transport: hb.members[i], Transcript: tw, Timeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				results[i], errs[i] = ref.Run(ctx)
				tw.Close()
			}(i)
		}
		wg.Wait()
		close(hb.closed)
		cancel()
		var first []byte
		for i := 0; i < n; i++ {
			if errs[i] != nil || results[i].Closing != nil || !results[i].Outcome.Done {
				t.Fatalf("%d players, seat %d: %v %+v", n, i, errs[i], results[i])
			}
			path := filepath.Join(dir, string(rune('a'+i))+".jsonl")
			data, _ := os.ReadFile(path)
			if first == nil {
				first = data
			} else if string(data) != string(first) {
				t.Fatalf("%d players: seat %d's transcript differs from seat 0's", n, i)
			}
			if rep := auditFile(t, path); rep.Verdict != fairness.Clean {
				t.Fatalf("%d players, seat %d: %s", n, i, rep.Summary())
			}
		}
		t.Logf("%d players: %s", n, results[0].Outcome.Reason)
	}
}
