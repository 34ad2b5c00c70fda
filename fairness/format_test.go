package fairness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
)

// The records in testdata/salvo3 were made by the last build of protocol
// salvo/3 (806f385, `salvo selfplay -seed 3`): they hold one-step parallel
// groups (hellos, dice shares, a deal's unmasking shares sent at once)
// where salvo/4 would have started a run, so judged by salvo/4's rules
// their members would stand out of place. Their format tells the audit
// which rules they were played by, and they must keep auditing clean.
func TestSalvo3RecordsAuditClean(t *testing.T) {
	for _, name := range []string{"air3", "cards", "ubuild"} {
		t.Run(name, func(t *testing.T) {
			rep, err := AuditFile(filepath.Join("testdata", "salvo3", name+".jsonl"), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != Clean {
				t.Fatalf("a salvo/3 record: %s", rep.Summary())
			}
			if rep.Header.Format != oneStepFormat {
				t.Fatalf("format %q, want %q", rep.Header.Format, oneStepFormat)
			}
		})
	}
}

// A record of the one-step format holds no pre-shares: salvo/3 had none,
// so a re-signed old record cannot gain one, and the live rule and the
// audit agree (both ask preshareWhy).
func TestOneStepRecordRefusesPreshares(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "salvo3", "cards.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, _, err := ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(mustSpec(t, h.Game), h)
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 2 {
		err := m.preshareWhy(engine.Seat(seat))
		if !errors.Is(err, ErrPreshare) || !strings.Contains(err.Error(), oneStepFormat) {
			t.Fatalf("seat %d: %v, want a refusal naming the format", seat, err)
		}
	}
}

// New matches are recorded in the current format, which their IDs bind;
// a format this build does not know is refused with its name.
func TestHeaderFormats(t *testing.T) {
	spec := mustSpec(t, "ubuild")
	h := testHeader(t, spec, testKeys(t, 2))
	if h.Format != TranscriptFormat {
		t.Fatalf("a new header's format is %q", h.Format)
	}
	old := h
	old.Format = oneStepFormat
	if a, b := mustID(t, h), mustID(t, old); a == b {
		t.Fatal("the format is no part of the match ID")
	}
	h.Format = "salvo-transcript/9"
	if _, _, err := h.check(spec); err == nil || !strings.Contains(err.Error(), "salvo-transcript/9") {
		t.Fatalf("an unknown format: %v", err)
	}
}

func mustID(t *testing.T, h Header) Digest {
	t.Helper()
	id, err := h.ComputeID()
	if err != nil {
		t.Fatal(err)
	}
	return id
}
