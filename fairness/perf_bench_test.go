package fairness

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
)

// The transcripts in testdata/perf are seat 0's records of selfplay matches
// between strong bots (`salvo selfplay -seed 3`, recorded before issue 15's
// speed work): one per game, and Air with 2, 3 and 4 players. They are the
// audit benchmark's input and, like the golden transcripts, must keep
// auditing clean.
var perfTranscripts = []string{"cards", "oceans", "sea", "air2", "air3", "air4"}

// perfFile returns the transcript of a perf case (the U-Build one is the
// golden standard match).
func perfFile(name string) string {
	if name == "ubuild" {
		return filepath.Join("testdata", "ubuild-standard.jsonl")
	}
	return filepath.Join("testdata", "perf", name+".jsonl")
}

func TestPerfTranscriptsAuditClean(t *testing.T) {
	for _, name := range perfTranscripts {
		t.Run(name, func(t *testing.T) {
			rep, err := AuditFile(perfFile(name), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != Clean {
				t.Fatalf("audit: %s", rep.Summary())
			}
		})
	}
}

// yardstick is the cost floor the audit is measured against: read each
// line with plain encoding/json, decode its signature and check it with
// crypto/ed25519, one verification per line. It is kept fixed (it uses
// none of the audit's own decoding), so its ratio to the audit means the
// same before and after a change of the audit.
func yardstick(tb testing.TB, data []byte, keys map[string]ed25519.PublicKey) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 4<<20)
	sc.Scan() // the header
	n := 0
	for sc.Scan() {
		var e Envelope
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			tb.Fatal(err)
		}
		sig, err := base64.StdEncoding.DecodeString(e.Sig)
		if err != nil {
			tb.Fatal(err)
		}
		d := e.signedDigest()
		if !ed25519.Verify(keys[e.From], d[:], sig) {
			tb.Fatalf("line %d: signature", n+2)
		}
		n++
	}
	return n
}

// rawKeys returns the players' raw Ed25519 keys by peer ID.
func rawKeys(tb testing.TB, data []byte) map[string]ed25519.PublicKey {
	h, keys := headerKeys(tb, data)
	out := map[string]ed25519.PublicKey{}
	for i, k := range keys {
		raw, err := k.Raw()
		if err != nil {
			tb.Fatal(err)
		}
		out[h.Players[i].Peer] = raw
	}
	return out
}

// headerKeys returns a transcript's header and its players' keys, as a
// match expands them.
func headerKeys(tb testing.TB, data []byte) (Header, []crypto.PubKey) {
	h, _, err := ReadTranscript(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	_, keys, err := h.check(mustSpec(tb, h.Game))
	if err != nil {
		tb.Fatal(err)
	}
	return h, keys
}

// BenchmarkAuditPerLine audits one transcript per game and, in the same
// run and interleaved with it, the yardstick over the same lines. It
// reports the audit's and the yardstick's CPU µs per envelope line and
// their ratio. Issue 15's targets, on one core (-cpu 1): at most 40 µs a line
// for the two-player games, 150 µs for Air.
func BenchmarkAuditPerLine(b *testing.B) {
	for _, name := range append([]string{"ubuild"}, perfTranscripts...) {
		data, err := os.ReadFile(perfFile(name))
		if err != nil {
			b.Fatal(err)
		}
		keys := rawKeys(b, data)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var audit, yard int64
			lines := 0
			for b.Loop() {
				t0 := perfCPU()
				rep, err := Audit(bytes.NewReader(data), games.Spec)
				t1 := perfCPU()
				if err != nil || rep.Verdict != Clean {
					b.Fatalf("%v %v", err, rep.Summary())
				}
				lines = yardstick(b, data, keys)
				audit, yard = audit+t1-t0, yard+perfCPU()-t1
			}
			per := func(ns int64) float64 { return float64(ns) / 1e3 / float64(b.N*lines) }
			b.ReportMetric(per(audit), "audit-µs/line")
			b.ReportMetric(per(yard), "yard-µs/line")
			b.ReportMetric(float64(audit)/float64(yard), "audit/yard")
			b.ReportMetric(float64(lines), "lines")
		})
	}
}

// BenchmarkFlights counts, from each recorded match, the flights per
// decision (a move an agent chose, a set-up commitment, a hidden choice)
// and the share of flights that carry only dice preimages. A flight is a
// round of waiting: an envelope waits for the one its Prev names, so the
// members of a parallel group (parallel.go), which all name the group's
// base, fly together; in a record without groups every envelope is its
// own flight. It measures the transcripts; the loop only satisfies the
// benchmark harness. FLIGHTS_DIR adds the transcripts of a directory
// (fresh selfplay records) to the cases.
func BenchmarkFlights(b *testing.B) {
	cases := map[string]string{}
	for _, name := range append([]string{"ubuild"}, perfTranscripts...) {
		cases[name] = perfFile(name)
	}
	if dir := os.Getenv("FLIGHTS_DIR"); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, p := range paths {
			cases["fresh-"+strings.TrimSuffix(filepath.Base(p), ".jsonl")] = p
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		b.Run(name, func(b *testing.B) {
			var f Flights
			for b.Loop() {
				f = countFlights(b, cases[name])
			}
			b.ReportMetric(f.PerDecision(), "flights/decision")
			b.ReportMetric(f.DiceShare(), "dice-only/flight")
			b.ReportMetric(f.AvoidableDiceShare(), "dice-not-after-choice/flight")
			b.ReportMetric(float64(f.Flights), "flights")
		})
	}
}

// countFlights counts a record's flights (CountFlights).
func countFlights(tb testing.TB, path string) Flights {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	n, err := CountFlights(f, games.Spec)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

func mustSpec(tb testing.TB, game string) (s engine.Spec) {
	s, ok := games.Spec(game)
	if !ok {
		tb.Fatalf("no game %q", game)
	}
	return s
}

// BenchmarkNewChain is a seat's dice as a match starts them: before issue
// 15 one chain of 16,384 links, now the first chain of SegmentLinks (the
// others are built only when a seat's rolls reach them).
func BenchmarkNewChain(b *testing.B) {
	match := newHasher("m").sum()
	for b.Loop() {
		if _, err := NewChain(match, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuditParts splits an audit's CPU time per line, in one run, into
// decoding (the envelope and its body), signature verification, and the
// rest (the replay: openings, dice, deck proofs, the engine, state hashes),
// to say where the time goes. Signatures are timed one at a time (verify,
// so that rest means what it meant before the audit batched them) and, as
// the audit checks them on one core, in batches (batch-verify).
func BenchmarkAuditParts(b *testing.B) {
	for _, name := range append([]string{"ubuild"}, perfTranscripts...) {
		data, err := os.ReadFile(perfFile(name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			h, _, err := ReadTranscript(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			_, keys, err := h.check(mustSpec(b, h.Game))
			if err != nil {
				b.Fatal(err)
			}
			for i := range keys {
				keys[i] = fastKey(keys[i])
			}
			lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:]
			var decode, verify, audit, batch int64
			for b.Loop() {
				t0 := perfCPU()
				envs := make([]*Envelope, 0, len(lines))
				for i, l := range lines {
					ln, err := parseLine(i+2, l)
					if err != nil || ln.Envelope == nil {
						continue
					}
					if _, err := DecodeBody(ln.Envelope.Body); err != nil {
						b.Fatal(err)
					}
					envs = append(envs, ln.Envelope)
				}
				t1 := perfCPU()
				for _, e := range envs {
					if err := e.Verify(keys[h.Seat(e.From)]); err != nil {
						b.Fatal(err)
					}
				}
				t2 := perfCPU()
				if _, err := Audit(bytes.NewReader(data), games.Spec); err != nil {
					b.Fatal(err)
				}
				t3 := perfCPU()
				batchVerify(b, envs, keys, h)
				t4 := perfCPU()
				decode, verify, audit, batch = decode+t1-t0, verify+t2-t1, audit+t3-t2, batch+t4-t3
			}
			per := func(ns int64) float64 { return float64(ns) / 1e3 / float64(b.N*len(lines)) }
			b.ReportMetric(per(audit), "audit-µs/line")
			b.ReportMetric(per(decode), "decode-µs/line")
			b.ReportMetric(per(verify), "verify-µs/line")
			b.ReportMetric(per(audit-decode-verify), "rest-µs/line")
			b.ReportMetric(per(batch), "batch-verify-µs/line")
		})
	}
}

// batchVerify checks the signatures of envs in batches of half the audit's
// window, as the audit does on one core (decodeBatch), and fails unless
// every one holds.
func batchVerify(b *testing.B, envs []*Envelope, keys []crypto.PubKey, h Header) {
	for part := range slices.Chunk(envs, feedLines/2) {
		var sb sigBatch
		fresh := make([]*Envelope, len(part))
		for i, e := range part {
			c := *e
			c.verified, c.id = false, nil
			fresh[i] = &c
			sb.add(&c, keys[h.Seat(e.From)])
		}
		sb.verify()
		for _, e := range fresh {
			if !e.verified {
				b.Fatalf("message %d: signature", e.Seq)
			}
		}
	}
}
