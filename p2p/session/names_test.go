package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
)

// TestAttackNameEscapesRefusedAtHandshake: a peer that sends a name a
// terminal would act on (or a too long one) is refused at the handshake,
// whichever side it plays, with an error that names the rule and quotes no
// raw byte of the name.
func TestAttackNameEscapesRefusedAtHandshake(t *testing.T) {
	names := []string{hostiletest.EvilName, "rtl\u202ename", strings.Repeat("n", untrusted.MaxNameRunes+1)}
	for _, evil := range names {
		t.Run("joiner", func(t *testing.T) {
			aKey, _, aEnd, bEnd := twoHosts(t)
			ctx := within(t, 10*time.Second)
			hostErr := make(chan error, 1)
			go func() {
				_, err := Host(ctx, aEnd, Self{Key: aKey, Name: "ann"}, Offer{Game: "ubuild"})
				hostErr <- err
			}()
			nonce, _ := fairness.NewNonce()
			if err := send(ctx, bEnd, frame{T: tJoin, Version: Version, Name: evil, Nonce: nonce}); err != nil {
				t.Fatal(err)
			}
			_, err := recv(ctx, bEnd, tOffer)
			wantDeclined(t, err)
			checkRefused(t, <-hostErr)
		})
		t.Run("host", func(t *testing.T) {
			_, bKey, aEnd, bEnd := twoHosts(t)
			ctx := within(t, 10*time.Second)
			joinErr := make(chan error, 1)
			go func() {
				_, err := Join(ctx, bEnd, Self{Key: bKey, Name: "bob"}, nil)
				joinErr <- err
			}()
			j, err := recv(ctx, aEnd, tJoin)
			if err != nil {
				t.Fatal(err)
			}
			entry, _ := games.Lookup("ubuild")
			hostNonce, _ := fairness.NewNonce()
			me, _ := peer.IDFromPublicKey(bKey.GetPublic())
			h, err := fairness.NewHeader(entry.Spec, "", []fairness.Player{
				{Peer: bEnd.Remote().String(), Name: evil, Nonce: hostNonce},
				{Peer: me.String(), Name: "bob", Nonce: j.Nonce},
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := send(ctx, aEnd, frame{T: tOffer, Header: &h}); err != nil {
				t.Fatal(err)
			}
			_, err = recv(ctx, aEnd, tAccept)
			wantDeclined(t, err)
			checkRefused(t, <-joinErr)
		})
		t.Run("inviter", func(t *testing.T) {
			_, _, aEnd, bEnd := twoHosts(t)
			ctx := within(t, 10*time.Second)
			if err := send(ctx, bEnd, frame{T: "invite", Game: "ubuild", Name: evil}); err != nil {
				t.Fatal(err)
			}
			_, err := ReadInvite(ctx, aEnd)
			checkRefused(t, err)
		})
	}
	t.Run("self", func(t *testing.T) {
		aKey, _, aEnd, _ := twoHosts(t)
		_, err := Host(context.Background(), aEnd, Self{Key: aKey, Name: hostiletest.EvilName}, Offer{Game: "ubuild"})
		checkRefused(t, err)
	})
}

// checkRefused wants the name rule's error, printable as it is.
func checkRefused(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, untrusted.ErrBadName) {
		t.Fatalf("got %v, want the name refused (untrusted.ErrBadName)", err)
	}
	if untrusted.Escape(err.Error()) != err.Error() {
		t.Errorf("the refusal quotes a raw control or format character: %q", err)
	}
}

// wantDeclined wants the hostile side's answer to be a decline.
func wantDeclined(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrDeclined) {
		t.Errorf("the hostile side got %v, want a decline", err)
	}
}

// within is a context that ends after d or with the test.
func within(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}
