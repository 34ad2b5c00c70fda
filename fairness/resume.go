package fairness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// secretsFile is the on-disk form of one seat's secrets in one match.
type secretsFile struct {
	Match Digest      `json:"match"`
	Seat  engine.Seat `json:"seat"`
	Seed  Digest      `json:"seed"`
	Links int         `json:"links"`
	// Continues is set for dice whose chains continue (see Dice); a file
	// without it holds the one long chain of a match begun before.
	Continues bool         `json:"continues,omitempty"`
	Vectors   []FullVector `json:"vectors"`
	Decks     []deckSecret `json:"decks,omitempty"`
}

// deckSecret is the seat's key share of a shared deck and the values of the
// cards dealt to it.
type deckSecret struct {
	Name  string      `json:"name"`
	Key   []byte      `json:"key"`
	Dealt map[int]int `json:"dealt,omitempty"`
}

type secretStore struct {
	secrets *Secrets
	chain   *Dice
}

// saveSecrets writes the seat's secrets atomically (a synced temporary file
// renamed over the old one), readable by the owner only.
func saveSecrets(path string, match Digest, seat engine.Seat, chain *Dice, sec *Secrets) error {
	f := secretsFile{Match: match, Seat: seat, Seed: chain.seed, Links: chain.Len(), Continues: chain.continues}
	for _, name := range sec.order {
		f.Vectors = append(f.Vectors, sec.vectors[name].Full())
	}
	for _, name := range sortedKeys(sec.deckKeys) {
		kb, err := sec.deckKeys[name].MarshalBinary()
		if err != nil {
			return fmt.Errorf("save secrets: %w", err)
		}
		ds := deckSecret{Name: name, Key: kb, Dealt: map[int]int{}}
		for slot, v := range sec.dealt {
			if slot.Name == name && len(v) == 1 {
				ds.Dealt[slot.Index] = int(v[0])
			}
		}
		f.Decks = append(f.Decks, ds)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("save secrets: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save secrets: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".secrets-*")
	if err != nil {
		return fmt.Errorf("save secrets: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("save secrets: %w", err)
	}
	return nil
}

// loadSecrets reads a seat's secrets back and checks they belong to match.
func loadSecrets(path string, match Digest, seat engine.Seat) (*secretStore, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f secretsFile
	if err := strictUnmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("secrets %s: %w", path, err)
	}
	if f.Match != match || f.Seat != seat {
		return nil, fmt.Errorf("secrets %s belong to another match or seat", path)
	}
	if f.Links < 1 || f.Links > 1<<24 {
		return nil, fmt.Errorf("secrets %s: chain length %d out of range", path, f.Links)
	}
	st := &secretStore{secrets: NewSecrets(seat), chain: newDice(match, seat, f.Seed, f.Links, f.Continues)}
	for _, fv := range f.Vectors {
		if len(fv.Values) != len(fv.Salts) || len(fv.Values) == 0 {
			return nil, fmt.Errorf("secrets %s: vector %q is damaged", path, fv.Name)
		}
		v := &Vector{owner: seat, name: fv.Name}
		for i := range fv.Values {
			v.values = append(v.values, fv.Values[i])
			v.salts = append(v.salts, fv.Salts[i])
			v.leaves = append(v.leaves, LeafCommitment(match, engine.Slot{Owner: seat, Name: fv.Name, Index: i}, fv.Salts[i], fv.Values[i]))
		}
		v.root = MerkleRoot(v.leaves)
		st.secrets.Add(v)
	}
	for _, ds := range f.Decks {
		k := new(deck.KeyShare)
		if err := k.UnmarshalBinary(ds.Key); err != nil {
			return nil, fmt.Errorf("secrets %s: deck %q: %w", path, ds.Name, err)
		}
		st.secrets.deckKeys[ds.Name] = k
		for pos, v := range ds.Dealt {
			if v < 1 || v > SharedDeckMaxValue {
				return nil, fmt.Errorf("secrets %s: deck %q: card value %d", path, ds.Name, v)
			}
			st.secrets.dealt[engine.Slot{Owner: engine.NoSeat, Name: ds.Name, Index: pos}] = []byte{byte(v)}
		}
	}
	return st, nil
}

// LoadMatch rebuilds a match from its transcript, to resume it: every line
// is checked and applied as the auditor would. It fails if the transcript
// is not readable or if the match stopped (a violation, a closing record).
// It also returns the transcript's envelopes, so that the ones the other
// side may have missed can be sent again.
func LoadMatch(spec Specs, path string) (*Match, []*Envelope, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("resume: %w", err)
	}
	defer f.Close()
	h, tr, err := ReadTranscript(f)
	if err != nil {
		return nil, nil, fmt.Errorf("resume %s: %w", path, err)
	}
	sp, ok := spec(h.Game)
	if !ok {
		return nil, nil, fmt.Errorf("resume %s: unknown game %q", path, h.Game)
	}
	m, err := NewMatch(sp, h)
	if err != nil {
		return nil, nil, fmt.Errorf("resume %s: %w", path, err)
	}
	var envs []*Envelope
	for {
		ln, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return m, envs, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("resume %s: %w", path, err)
		}
		if ln.Envelope == nil {
			return nil, nil, fmt.Errorf("resume %s: line %d: the match was stopped", path, ln.No)
		}
		if _, err := m.Accept(ln.Envelope); err != nil {
			return nil, nil, fmt.Errorf("resume %s: line %d: %w", path, ln.No, err)
		}
		envs = append(envs, ln.Envelope)
	}
}

// AppendTranscript reopens a transcript to add to it.
func AppendTranscript(path string) (*TranscriptWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return &TranscriptWriter{f: f, path: path, n: st.Size()}, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
