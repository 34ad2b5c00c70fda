package p2p

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
)

func TestDecodeInfo(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Info
		bad  bool
	}{
		{name: "name and offer", in: `{"name":"Ada","offer":"ubuild"}`, want: Info{Name: "Ada", Offer: "ubuild"}},
		{name: "idle", in: `{"name":"Ada","offer":""}`, want: Info{Name: "Ada"}},
		{name: "fields missing", in: `{}`, want: Info{}},
		{name: "unknown fields ignored", in: ` {"name":"Bo","v":2,"extra":[1,2]}`, want: Info{Name: "Bo"}},
		{name: "non-ASCII name", in: `{"name":"Éloïse ⚓"}`, want: Info{Name: "Éloïse ⚓"}},
		{name: "name at the limit", in: `{"name":"` + strings.Repeat("n", MaxNameRunes) + `"}`, want: Info{Name: strings.Repeat("n", MaxNameRunes)}},
		{name: "name over the limit", in: `{"name":"` + strings.Repeat("n", MaxNameRunes+1) + `"}`, bad: true},
		{name: "offer over the limit", in: `{"offer":"` + strings.Repeat("o", MaxOfferBytes+1) + `"}`, bad: true},
		{name: "escape character", in: `{"name":"\u001b[31mred"}`, bad: true},
		{name: "newline", in: `{"name":"a\nb"}`, bad: true},
		{name: "DEL", in: `{"name":"a\u007fb"}`, bad: true},
		{name: "bidi override", in: `{"name":"abc\u202edef"}`, bad: true},
		{name: "zero-width joiner", in: `{"offer":"a\u200db"}`, bad: true},
		{name: "line separator", in: `{"name":"a\u2028b"}`, bad: true},
		{name: "wrong type", in: `{"name":7}`, bad: true},
		{name: "null", in: `null`, bad: true},
		{name: "array", in: `[]`, bad: true},
		{name: "empty", in: ``, bad: true},
		{name: "truncated", in: `{"name":"Ad`, bad: true},
		{name: "trailing garbage", in: `{"name":"Ad"} x`, bad: true},
		{name: "over MaxInfo", in: `{"name":"a","pad":"` + strings.Repeat(" ", MaxInfo) + `"}`, bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeInfo([]byte(tc.in))
			if tc.bad {
				if !errors.Is(err, ErrBadInfo) {
					t.Fatalf("err = %v, want ErrBadInfo", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestEncodeInfoRoundTrip(t *testing.T) {
	for _, i := range []Info{{}, {Name: "Ada", Offer: "sea"}, {Name: strings.Repeat("é", MaxNameRunes)}} {
		b, err := EncodeInfo(i)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeInfo(b)
		if err != nil || got != i {
			t.Fatalf("round trip of %+v: %+v, %v", i, got, err)
		}
	}
	if _, err := EncodeInfo(Info{Name: "a\tb"}); !errors.Is(err, ErrBadInfo) {
		t.Fatalf("EncodeInfo with a tab: %v, want ErrBadInfo", err)
	}
}

func TestInfoQuery(t *testing.T) {
	for _, transport := range []string{"tcp", "quic-v1"} {
		t.Run(transport, func(t *testing.T) {
			a, b := newHost(t, Config{Name: "Ada"}), newHost(t, Config{Name: "Bo"})
			// Not connected yet: QueryInfo dials from the peerstore.
			ai, err := ParseAddrs(addrOf(t, b, transport))
			if err != nil {
				t.Fatal(err)
			}
			a.Libp2p().Peerstore().AddAddrs(ai.ID, ai.Addrs, time.Minute)
			ctx := ctxT(t, 10*time.Second)
			got, err := a.QueryInfo(ctx, b.ID())
			if err != nil || got != (Info{Name: "Bo"}) {
				t.Fatalf("QueryInfo: %+v, %v", got, err)
			}
			if err := b.SetOffer("ubuild"); err != nil {
				t.Fatal(err)
			}
			if got, err := a.QueryInfo(ctx, b.ID()); err != nil || got != (Info{Name: "Bo", Offer: "ubuild"}) {
				t.Fatalf("QueryInfo after SetOffer: %+v, %v", got, err)
			}
			// Either side may ask.
			if got, err := b.QueryInfo(ctx, a.ID()); err != nil || got != (Info{Name: "Ada"}) {
				t.Fatalf("reverse QueryInfo: %+v, %v", got, err)
			}
			if got, err := a.QueryInfo(ctx, a.ID()); err != nil || got.Name != "Ada" {
				t.Fatalf("self QueryInfo: %+v, %v", got, err)
			}
		})
	}
}

func TestInfoRejectsBadAnswers(t *testing.T) {
	tests := []struct {
		name   string
		answer func(s network.Stream)
		want   error
	}{
		{"oversize frame", func(s network.Stream) { _ = WriteFrame(s, bytes.Repeat([]byte("x"), MaxInfo+1)) }, ErrFrameTooLarge},
		{"control character", func(s network.Stream) { _ = WriteFrame(s, []byte(`{"name":"\u0007"}`)) }, ErrBadInfo},
		{"not JSON", func(s network.Stream) { _ = WriteFrame(s, []byte("hello")) }, ErrBadInfo},
		{"truncated", func(s network.Stream) { _, _ = s.Write([]byte{40, '{'}) }, ErrTruncatedFrame},
		{"no answer", func(s network.Stream) {}, nil}, // any error will do
	}
	a, b := pair(t, "tcp", Config{}, Config{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b.Libp2p().SetStreamHandler(InfoProtocol, func(s network.Stream) {
				tc.answer(s)
				_ = s.Close()
			})
			_, err := a.QueryInfo(ctxT(t, 10*time.Second), b.ID())
			if err == nil {
				t.Fatal("bad answer accepted")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("silent answerer times out", func(t *testing.T) {
		b.Libp2p().SetStreamHandler(InfoProtocol, func(s network.Stream) {
			time.Sleep(5 * time.Second)
			_ = s.Reset()
		})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, err := a.QueryInfo(ctx, b.ID()); err == nil {
			t.Fatal("no error from a silent answerer")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("QueryInfo ignored its context: took %v", d)
		}
	})
}

func TestTextRules(t *testing.T) {
	a := newHost(t, Config{})
	for _, bad := range []string{"a\x00b", "\x1b[2J", strings.Repeat("x", MaxOfferBytes+1), "\xff\xfe", "rtl\u202e"} {
		if err := a.SetOffer(bad); !errors.Is(err, ErrBadInfo) {
			t.Errorf("SetOffer(%q): %v, want ErrBadInfo", bad, err)
		}
		if _, err := New(context.Background(), Config{Name: bad, ListenAddrs: loopTCP}); err == nil {
			t.Errorf("New with name %q worked", bad)
		}
	}
	if a.Offer() != "" {
		t.Fatalf("a refused offer was kept: %q", a.Offer())
	}
	if err := a.SetOffer("air"); err != nil || a.Offer() != "air" {
		t.Fatalf("SetOffer(air): %v, Offer() = %q", err, a.Offer())
	}
}

// FuzzDecodeInfo checks that DecodeInfo never panics and that whatever it
// accepts obeys the text rules and survives an encode/decode round trip.
func FuzzDecodeInfo(f *testing.F) {
	f.Add([]byte(`{"name":"Ada","offer":"ubuild"}`))
	f.Add([]byte(`{"name":"\u202e"}`))
	f.Add([]byte(`{"name":"\xff"}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"offer":7}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		i, err := DecodeInfo(in)
		if err != nil {
			if !errors.Is(err, ErrBadInfo) {
				t.Fatalf("error not wrapping ErrBadInfo: %v", err)
			}
			return
		}
		if checkName(i.Name) != nil || checkText("offer", i.Offer, MaxOfferBytes) != nil {
			t.Fatalf("accepted %+v breaking the text rules", i)
		}
		b, err := EncodeInfo(i)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", i, err)
		}
		j, err := DecodeInfo(b)
		if err != nil || j != i {
			t.Fatalf("round trip %+v → %+v, %v", i, j, err)
		}
	})
}
