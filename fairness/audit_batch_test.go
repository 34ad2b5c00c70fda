package fairness

import (
	"bytes"
	"encoding/base64"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oasisprotocol/curve25519-voi/curve"

	"github.com/salvo-game/salvo/engine/games"
)

// sigMutation changes a line's 64-byte signature as someone without the
// signer's key can: it returns false when it does not apply.
type sigMutation struct {
	name string
	f    func(rng *mrand.Rand, sig []byte) bool
}

func sigMutations(t *testing.T, rng *mrand.Rand) []sigMutation {
	torsion := torsionPoints(t, rng)
	return []sigMutation{
		{"flip a bit", func(rng *mrand.Rand, sig []byte) bool { sig[rng.IntN(64)] ^= 1 << rng.IntN(8); return true }},
		{"flip a bit of R", func(rng *mrand.Rand, sig []byte) bool { sig[rng.IntN(32)] ^= 1 << rng.IntN(8); return true }},
		{"small-order point added to R", func(rng *mrand.Rand, sig []byte) bool {
			var c curve.CompressedEdwardsY
			copy(c[:], sig)
			R, err := new(curve.EdwardsPoint).SetCompressedY(&c)
			if err != nil {
				return false
			}
			copy(sig, enc(R.Add(R, torsion[rng.IntN(len(torsion))])))
			return true
		}},
		{"S+L", func(_ *mrand.Rand, sig []byte) bool { copy(sig, addOrder(sig)); return true }},
		{"S above L", func(_ *mrand.Rand, sig []byte) bool {
			for i := 32; i < 64; i++ {
				sig[i] = 0xff
			}
			sig[63] = 0x1f
			return true
		}},
		{"non-canonical R", func(rng *mrand.Rand, sig []byte) bool {
			copy(sig, nonCanonical(byte(rng.IntN(2)), rng.IntN(2) == 1))
			return true
		}},
	}
}

// mutateSig applies m to the signature of line i of lines (the last "sig"
// of the line, the envelope's own).
func mutateSig(t *testing.T, rng *mrand.Rand, line []byte, m sigMutation) ([]byte, bool) {
	at := bytes.LastIndex(line, []byte(`"sig":"`))
	if at < 0 {
		return nil, false
	}
	at += len(`"sig":"`)
	end := at + bytes.IndexByte(line[at:], '"')
	sig, err := base64.StdEncoding.DecodeString(string(line[at:end]))
	if err != nil || len(sig) != 64 {
		t.Fatalf("line has no signature: %v", err)
	}
	if !m.f(rng, sig) {
		return nil, false
	}
	out := append(bytes.Clone(line[:at]), base64.StdEncoding.EncodeToString(sig)...)
	return append(out, line[end:]...), true
}

// auditLineByLine is Audit with every signature checked on its own.
func auditLineByLine(t *testing.T, data []byte) *Report {
	rep, err := AuditLineByLine(data)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// AuditLineByLine is Audit of data with every signature checked on its
// own, for the package's external tests too. Not safe to run beside
// another audit.
func AuditLineByLine(data []byte) (*Report, error) {
	defer func(n int) { batchLines = n }(batchLines)
	batchLines = 1
	return Audit(bytes.NewReader(data), games.Spec)
}

// An audit that checks the signatures of its window in batches reaches
// exactly the verdict, line and detail of one that checks every signature
// on its own, whatever signatures are broken and where: random mutations
// an outsider can make (bit flips in the signature and in R, a small-order
// point added to R, S at or above the group order, non-canonical R) at
// one or two random lines of clean records of several games.
func TestAuditBatchNamesTheSameLine(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(15, 7))
	muts := sigMutations(t, rng)
	for _, name := range []string{"ubuild-standard.jsonl", "cards-standard-2p.jsonl", "air-standard-2p.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for range 12 {
			bad := slices.Clone(lines)
			var what []string
			for range 1 + rng.IntN(2) {
				i := 1 + rng.IntN(len(lines)-1)
				m := muts[rng.IntN(len(muts))]
				if out, ok := mutateSig(t, rng, bad[i], m); ok {
					bad[i] = out
					what = append(what, m.name)
				}
			}
			if len(what) == 0 {
				continue
			}
			file := bytes.Join(bad, nil)
			want := auditLineByLine(t, file)
			got, err := Audit(bytes.NewReader(file), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if want.Verdict == Clean {
				t.Fatalf("%s, %v: a broken signature audits clean", name, what)
			}
			if got.Verdict != want.Verdict || got.Line != want.Line || got.Summary() != want.Summary() || len(got.Steps) != len(want.Steps) {
				t.Fatalf("%s, %v: batched audit says %s at line %d, line by line %s at line %d", name, what, got.Summary(), got.Line, want.Summary(), want.Line)
			}
		}
	}
}

// Every signature of every recorded match (the golden and perf
// transcripts, recorded under salvo/2's crypto/ed25519 rule) gets the same
// answer from ZIP-215 as from crypto/ed25519: the switch of rule leaves
// every old record auditing as before.
func TestRecordedSignaturesVerifyUnderBothRules(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	perf, _ := filepath.Glob(filepath.Join("testdata", "perf", "*.jsonl"))
	checked := 0
	for _, path := range append(files, perf...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, _, err := ReadTranscript(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		keys := rawKeys(t, data)
		for i, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] {
			ln, err := parseLine(i+2, l)
			if err != nil {
				continue
			}
			var from, sig64 string
			var d Digest
			switch {
			case ln.Envelope != nil:
				from, sig64, d = ln.Envelope.From, ln.Envelope.Sig, ln.Envelope.signedDigest()
			case ln.Closing != nil:
				from, sig64, d = ln.Closing.By, ln.Closing.Sig, ln.Closing.signedDigest()
			default:
				continue
			}
			key, ok := keys[from]
			sig, err := base64.StdEncoding.DecodeString(sig64)
			if !ok || err != nil || h.Seat(from) < 0 {
				continue
			}
			if std, zip := stdVerify(key, d[:], sig), zip215(key, d[:], sig); std != zip {
				t.Fatalf("%s line %d: crypto/ed25519 says %v, ZIP-215 %v", path, i+2, std, zip)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d signatures checked", checked)
	}
}
