package group

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Every peer publishes as soon as it sees the others subscribed, on a
// topic joined a moment before: every frame reaches every other player,
// named with its author, and nobody gets its own frames back. Repeated on
// fresh hosts, so a slow mesh would show as a lost first frame.
func TestEveryFrameReachesEveryOtherPlayer(t *testing.T) {
	const frames = 12
	for _, n := range []int{2, 3, 4} {
		for trial := 0; trial < 3; trial++ {
			t.Run(fmt.Sprintf("%d-peers/trial-%d", n, trial), func(t *testing.T) {
				s := newPeers(t, n, true)
				topics := s.joinAll(t, testMatch)
				waitAll(t, topics)
				for i, tp := range topics {
					for k := 0; k < frames; k++ {
						if err := tp.Send(context.Background(), fmt.Appendf(nil, "%d/%d", i, k)); err != nil {
							t.Fatal(err)
						}
					}
				}
				for i, tp := range topics {
					got := recvN(t, tp, (n-1)*frames, 10*time.Second)
					seen := map[string]bool{}
					for _, in := range got {
						var from, k int
						if _, err := fmt.Sscanf(string(in.data), "%d/%d", &from, &k); err != nil {
							t.Fatalf("peer %d: frame %q: %v", i, in.data, err)
						}
						if from == i {
							t.Fatalf("peer %d got its own frame %q", i, in.data)
						}
						if in.from != s.hosts[from].ID() {
							t.Fatalf("peer %d: frame %q named author %s, want peer %d", i, in.data, in.from, from)
						}
						if seen[string(in.data)] {
							t.Fatalf("peer %d: frame %q twice", i, in.data)
						}
						seen[string(in.data)] = true
					}
					expectNothing(t, tp, 100*time.Millisecond)
					st := tp.Stats()
					if st.Sent != frames || st.Received != (n-1)*frames || st.Dropped != 0 || st.Rejected != 0 {
						t.Fatalf("peer %d stats %+v", i, st)
					}
				}
			})
		}
	}
}

// A player that subscribes late is waited for: WaitPeers does not return
// before it has joined, and the first frame published after it returns
// reaches the latecomer.
func TestLateSubscriberIsWaitedFor(t *testing.T) {
	s := newPeers(t, 4, true)
	var topics [4]*Topic
	for i := 0; i < 3; i++ {
		tp, err := s.routers[i].Join(testMatch, s.ids())
		if err != nil {
			t.Fatal(err)
		}
		topics[i] = tp
		t.Cleanup(func() { tp.Close() })
	}
	var joining atomic.Bool
	joined := make(chan error, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		joining.Store(true)
		tp, err := s.routers[3].Join(testMatch, s.ids())
		topics[3] = tp
		joined <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := topics[0].WaitPeers(ctx); err != nil {
		t.Fatal(err)
	}
	if !joining.Load() {
		t.Fatal("WaitPeers returned before the fourth player joined")
	}
	if err := topics[0].Send(ctx, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := <-joined; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { topics[3].Close() })
	for i := 1; i < 4; i++ {
		got := recvN(t, topics[i], 1, 5*time.Second)
		if string(got[0].data) != "first" || got[0].from != s.hosts[0].ID() {
			t.Fatalf("peer %d got %q from %s", i, got[0].data, got[0].from)
		}
	}
}

// Joiners connected only to the host never see each other subscribed:
// WaitPeers fails and names the players it cannot see.
func TestWaitPeersNamesTheUnreachable(t *testing.T) {
	s := newPeers(t, 3, false)
	topics := s.joinAll(t, testMatch)
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	err := topics[1].WaitPeers(ctx)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitPeers = %v, want a deadline error", err)
	}
	if !strings.Contains(err.Error(), s.hosts[2].ID().String()) || strings.Contains(err.Error(), s.hosts[0].ID().String()) {
		t.Fatalf("error %q should name peer 2 and only it", err)
	}
	if got := topics[1].Peers(); len(got) != 1 || got[0] != s.hosts[0].ID() {
		t.Fatalf("peer 1 sees %v, want only the host", got)
	}
}

// A peer that is not a player may publish on the topic, but no player
// accepts or forwards its frames.
func TestNonPlayerFramesAreRejected(t *testing.T) {
	s := newPeers(t, 4, true)
	players := s.ids()[:3]
	var topics []*Topic
	for i := 0; i < 3; i++ {
		tp, err := s.routers[i].Join(testMatch, players)
		if err != nil {
			t.Fatal(err)
		}
		topics = append(topics, tp)
		t.Cleanup(func() { tp.Close() })
	}
	// The outsider's own router accepts it as a player of its own list.
	out, err := s.routers[3].Join(testMatch, s.ids())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	waitAll(t, topics)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := out.WaitPeers(ctx); err != nil {
		t.Fatal(err)
	}
	if err := out.Send(ctx, []byte("intruder")); err != nil {
		t.Fatal(err)
	}
	if err := topics[0].Send(ctx, []byte("player")); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		got := recvN(t, topics[i], 1, 5*time.Second)
		if string(got[0].data) != "player" {
			t.Fatalf("peer %d got %q", i, got[0].data)
		}
		expectNothing(t, topics[i], 200*time.Millisecond)
		if st := topics[i].Stats(); st.Rejected == 0 {
			t.Fatalf("peer %d rejected nothing: %+v", i, st)
		}
	}
}

// A player whose own software skips the size check still cannot push a
// frame over MaxFrame to the others; Send refuses one outright.
func TestOversizeFramesAreRejected(t *testing.T) {
	s := newPeers(t, 3, true)
	topics := make([]*Topic, 2)
	for i := 0; i < 2; i++ {
		tp, err := s.routers[i].Join(testMatch, s.ids())
		if err != nil {
			t.Fatal(err)
		}
		topics[i] = tp
		t.Cleanup(func() { tp.Close() })
	}
	// Player 2 publishes through gossipsub with no validator of its own.
	raw, err := s.routers[2].ps.Join(TopicName(testMatch))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := raw.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Cancel()
	waitAll(t, topics)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for len(raw.ListPeers()) < 2 {
		select {
		case <-ctx.Done():
			t.Fatal("the raw publisher never saw the players")
		case <-time.After(PollInterval):
		}
	}
	if err := raw.Publish(ctx, make([]byte, MaxFrame+1)); err != nil {
		t.Fatal(err)
	}
	if err := raw.Publish(ctx, []byte("small")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		got := recvN(t, topics[i], 1, 5*time.Second)
		if string(got[0].data) != "small" || got[0].from != s.hosts[2].ID() {
			t.Fatalf("peer %d got %d bytes from %s", i, len(got[0].data), got[0].from)
		}
		expectNothing(t, topics[i], 200*time.Millisecond)
		if st := topics[i].Stats(); st.Rejected != 1 {
			t.Fatalf("peer %d stats %+v, want one rejected frame", i, st)
		}
	}
	if err := topics[0].Send(ctx, make([]byte, MaxFrame+1)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("Send of %d bytes = %v", MaxFrame+1, err)
	}
	if err := topics[0].Send(ctx, make([]byte, MaxFrame)); err != nil {
		t.Fatalf("Send of exactly MaxFrame: %v", err)
	}
	if got := recvN(t, topics[1], 1, 5*time.Second); len(got[0].data) != MaxFrame {
		t.Fatalf("got %d bytes", len(got[0].data))
	}
}

// Close ends RecvFrom, the others see the peer leave, and Linger returns
// once every other player has left (or its bound passes).
func TestCloseAndLinger(t *testing.T) {
	s := newPeers(t, 3, true)
	topics := s.joinAll(t, testMatch)
	waitAll(t, topics)
	errc := make(chan error, 1)
	go func() {
		_, _, err := topics[0].RecvFrom(context.Background())
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := topics[0].Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("RecvFrom after Close = %v", err)
	}
	if err := topics[0].Send(context.Background(), []byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send after Close = %v", err)
	}
	if err := topics[0].Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	// Linger is bounded while a player stays.
	start := time.Now()
	topics[1].Linger(context.Background(), 300*time.Millisecond)
	if el := time.Since(start); el < 250*time.Millisecond {
		t.Fatalf("Linger returned after %v with peer 2 still subscribed", el)
	}
	if p := topics[1].Peers(); len(p) != 1 || p[0] != s.hosts[2].ID() {
		t.Fatalf("peer 1 sees %v, want only peer 2 (peer 0 left)", p)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		topics[2].Close()
	}()
	start = time.Now()
	topics[1].Linger(context.Background(), 10*time.Second)
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("Linger took %v after the last player left", el)
	}
	// The topic can be joined again once closed.
	again, err := s.routers[0].Join(testMatch, s.ids())
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
}

func TestJoinRefusals(t *testing.T) {
	s := newPeers(t, 2, true)
	ids := s.ids()
	other := ids[1]
	cases := []struct {
		name    string
		players []peer.ID
		want    string
	}{
		{"not-a-player", []peer.ID{other}, "not one of its players"},
		{"twice", []peer.ID{ids[0], other, other}, "listed twice"},
		{"empty-id", []peer.ID{ids[0], peer.ID("")}, "player"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tp, err := s.routers[0].Join(testMatch, c.players)
			if err == nil {
				tp.Close()
				t.Fatal("joined")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want %q", err, c.want)
			}
		})
	}
	tp, err := s.routers[0].Join(testMatch, ids)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.routers[0].Join(testMatch, ids); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("second join = %v", err)
	}
	if err := s.routers[0].Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tp.RecvFrom(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("RecvFrom after the router closed = %v", err)
	}
	if _, err := s.routers[0].Join(testMatch, ids); !errors.Is(err, ErrClosed) {
		t.Fatalf("join on a closed router = %v", err)
	}
}

func TestInboxBoundsEachAuthor(t *testing.T) {
	a, b := peer.ID("a"), peer.ID("b")
	q := newInbox(2, 1<<20)
	steps := []struct {
		from peer.ID
		ok   bool
	}{{a, true}, {a, true}, {a, false}, {b, true}, {b, true}, {b, false}}
	for i, s := range steps {
		if got := q.push(inbound{data: []byte{byte(i)}, from: s.from}); got != s.ok {
			t.Fatalf("push %d from %s = %v", i, s.from, got)
		}
	}
	if q.len() != 4 || q.max != 4 {
		t.Fatalf("len %d max %d", q.len(), q.max)
	}
	in, _ := q.pop()
	if in.from != a || in.data[0] != 0 {
		t.Fatalf("first out: %+v", in)
	}
	if !q.push(inbound{data: []byte{9}, from: a}) {
		t.Fatal("a has room again after a pop")
	}
	var order []byte
	for {
		in, ok := q.pop()
		if !ok {
			break
		}
		order = append(order, in.data[0])
	}
	if string(order) != string([]byte{1, 3, 4, 9}) {
		t.Fatalf("order %v", order)
	}
	if len(q.pending) != 0 || len(q.bytes) != 0 {
		t.Fatalf("pending left: %v %v", q.pending, q.bytes)
	}
}

// The inbox bounds each author's bytes waiting too: a flood of large
// frames loses its author's frames beyond the bound, and nobody else's.
func TestInboxBoundsEachAuthorsBytes(t *testing.T) {
	a, b := peer.ID("a"), peer.ID("b")
	q := newInbox(1024, 3000)
	big := make([]byte, 1000)
	for i, want := range []bool{true, true, true, false} {
		if got := q.push(inbound{data: big, from: a}); got != want {
			t.Fatalf("push %d of a = %v", i, got)
		}
	}
	if !q.push(inbound{data: big, from: b}) {
		t.Fatal("a's flood took b's room")
	}
	q.pop()
	if !q.push(inbound{data: big, from: a}) || q.push(inbound{data: []byte{1}, from: a}) {
		t.Fatal("a has room for exactly one frame more after a pop")
	}
}

// When every other player has left, RecvFrom first returns the frames that
// arrived, then ErrAllLeft; one player leaving a larger table is not
// reported.
func TestAllLeftComesAfterTheFramesReceived(t *testing.T) {
	s := newPeers(t, 3, true)
	topics := s.joinAll(t, testMatch)
	waitAll(t, topics)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := topics[1].Send(ctx, []byte("last words")); err != nil {
		t.Fatal(err)
	}
	if err := topics[1].Close(); err != nil {
		t.Fatal(err)
	}
	// Only peer 1 has left: nothing to report yet.
	got := recvN(t, topics[0], 1, 5*time.Second)
	if string(got[0].data) != "last words" {
		t.Fatalf("got %q", got[0].data)
	}
	expectNothing(t, topics[0], LeftGrace+300*time.Millisecond)
	if err := topics[2].Send(ctx, []byte("bye")); err != nil {
		t.Fatal(err)
	}
	if err := topics[2].Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(LeftGrace + 200*time.Millisecond)
	b, from, err := topics[0].RecvFrom(ctx)
	if err != nil || string(b) != "bye" || from != s.hosts[2].ID().String() {
		t.Fatalf("RecvFrom = %q, %s, %v; want the frame sent before leaving", b, from, err)
	}
	start := time.Now()
	if _, _, err := topics[0].RecvFrom(ctx); !errors.Is(err, ErrAllLeft) {
		t.Fatalf("RecvFrom = %v, want ErrAllLeft", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("ErrAllLeft took %v", el)
	}
}

// The connections to the other players are protected from the connection
// manager while the topic is joined.
func TestPlayersAreProtectedWhileJoined(t *testing.T) {
	s := newPeers(t, 3, true)
	tp, err := s.routers[0].Join(testMatch, s.ids())
	if err != nil {
		t.Fatal(err)
	}
	cm := s.hosts[0].Libp2p().ConnManager()
	for _, p := range s.ids()[1:] {
		if !cm.IsProtected(p, TopicName(testMatch)) {
			t.Fatalf("%s not protected", p)
		}
	}
	tp.Close()
	for _, p := range s.ids()[1:] {
		if cm.IsProtected(p, TopicName(testMatch)) {
			t.Fatalf("%s still protected after Close", p)
		}
	}
}

// A player whose connections are lost without its leaving the topic (a
// killed process, a cut link) has not left: it may come back, or be
// restarted and resume, so RecvFrom does not report every player gone
// (the session gives up on it after its give-up time instead).
func TestLostPlayerHasNotLeft(t *testing.T) {
	s := newPeers(t, 2, true)
	topics := s.joinAll(t, testMatch)
	waitAll(t, topics)
	_ = s.hosts[1].Close() // no unsubscribe: its connections just end
	expectNothing(t, topics[0], LeftGrace+time.Second)
}
