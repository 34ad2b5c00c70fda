// Package engine is the contract every Salvo game implements, and the small
// toolkit the games share.
//
// # The contract
//
// A game is a pure state machine that always says what it needs next
// ([Game.Next]) and consumes exactly one [Input] at a time ([Game.Apply]).
// An input that the rules do not allow is an error and changes nothing.
// [Game.Hash] is a digest of the whole public state, so two peers that fed the
// same inputs in the same order hold the same hash. Engines do no I/O, read no
// clock and draw no randomness: everything a player does, and every random
// value, enters as a recorded input. The same inputs give the same state and
// the same hash on every machine.
//
// Engines never see a secret they were not shown. Hidden data (a ship layout,
// a deck order, a fighter's strength) is held by its owner's referee beside
// the engine; the engine only knows that a named vector of values was
// committed ([NeedCommit]) and learns single values when the rules reveal
// them ([Opened]). The referee (package fairness) checks every opening
// against its commitment before the engine sees it, computes every joint
// random value, and signs and sends what the local seat contributes.
//
// # What a game can need
//
//   - [NeedMove]: a decision by one seat. A move may have to carry openings
//     of that seat's own commitments: those the need lists in [Need.Open] (the
//     cells a volley hit) and those the move itself implies
//     ([Game.MustOpen]: the weapon count of a ship that fires for the first
//     time). A need marked [Need.Auto] is not a decision at all: the rules fix
//     the answer given the seat's secrets, and [Answerer] produces it.
//   - [NeedCommit]: a seat commits to a vector of hidden values (a grid, a
//     deck, fighter strengths, a missile loaded at take-off).
//   - [NeedOpen]: a seat opens slots because the rules reveal them (a fighter's
//     strength in a dogfight, every remaining cell at the end of a match).
//   - [NeedRandom]: a named joint random roll: Count values, each uniform in
//     [0, Bound), that no seat could predict or bias.
//   - [NeedChoice]: simultaneous hidden choices: every listed seat commits to a
//     choice, and all are opened together once every commitment is in.
//   - [NeedShuffle] and [NeedDeal]: a deck shared by all seats is shuffled by
//     every seat in turn, and cards are dealt from it so that only the
//     receiving seat learns them (mental card play).
//
// # How the five games map onto it
//
//   - Battleship U-Build: each seat commits its 100 grid cells (value: water or
//     a ship) and, in the custom variant, its five weapon counts; a volley is a
//     move; its answer is an Auto move that opens every cell shot; the first
//     player is a NeedRandom with Bound 2; at the end NeedOpen reveals every
//     remaining cell and the engine checks the layout.
//   - Coordinate card game: each seat commits its 12 coordinate cards and its
//     26 destruction cards as leaves in an order only it knows. Flipping a
//     facedown grid position or drawing a card is a NeedRandom that picks one
//     of the remaining leaves, so nobody (the owner included) knows the grid or
//     the deck order; playing a card is a move that opens its leaf; a reshuffle
//     of the discard pile is a fresh NeedCommit.
//   - Ocean card game: the same own-deck scheme for each 36-card fleet deck; a
//     facedown task-force card is the drawn leaf, opened in battle.
//   - Mission Command Sea: every die is a NeedRandom with Bound 6; fighter
//     strengths are a NeedCommit at setup, opened (NeedOpen) in a dogfight; a
//     missile loaded at take-off is a one-leaf NeedCommit opened on launch.
//   - Mission Command Air: the 60 Navigation cards are one shared deck
//     (NeedShuffle once, NeedDeal to refill each hand, a played card is opened
//     by its holder); the per-plane card choices of a round are a NeedChoice;
//     every die is a NeedRandom over all seats.
//
// Seats are positions 0..n-1 in the match header; nothing here assumes two.
package engine

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
)

// Seat is a player's position at the table, counted from 0 in the order the
// match header lists the players.
type Seat int

// NoSeat marks the absence of a seat: a roll that no single seat acts on, or
// a slot of a deck that belongs to no seat.
const NoSeat Seat = -1

// String returns a short name for the seat, such as "seat 1".
func (s Seat) String() string {
	if s == NoSeat {
		return "no seat"
	}
	return fmt.Sprintf("seat %d", int(s))
}

// Digest is a 256-bit hash.
type Digest [32]byte

// String returns the digest in lower-case hex.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// Short returns the first eight hex digits of the digest, for display
// (the event of every dice share an audit replays names its link so).
func (d Digest) Short() string { return hex.EncodeToString(d[:4]) }

// NeedKind says what kind of input a game waits for.
type NeedKind uint8

// The kinds of input a game can need. See the package documentation.
const (
	NeedNone NeedKind = iota
	NeedMove
	NeedCommit
	NeedOpen
	NeedRandom
	NeedChoice
	NeedShuffle
	NeedDeal
)

var needNames = [...]string{"none", "move", "commit", "open", "random", "choice", "shuffle", "deal"}

// String returns the kind's lower-case name, as used in transcripts.
func (k NeedKind) String() string {
	if int(k) < len(needNames) {
		return needNames[k]
	}
	return fmt.Sprintf("need(%d)", uint8(k))
}

// Slot names one committed hidden value: leaf Index of the vector Name
// committed by Owner. Slots of a shared deck have Owner NoSeat.
type Slot struct {
	Owner Seat   `json:"owner"`
	Name  string `json:"name"`
	Index int    `json:"index"`
}

// String returns a readable form of the slot, such as "seat 1/grid[23]".
func (s Slot) String() string { return fmt.Sprintf("%s/%s[%d]", s.Owner, s.Name, s.Index) }

// Words returns the slot's String as Words ([Worded]): a text that
// names a slot keeps its owner apart, for an interface to name.
func (s Slot) Words() Words { return Wordsf("%s/%s[%d]", s.Owner, s.Name, s.Index) }

// Need is what a game waits for next.
type Need struct {
	// Kind is the kind of input needed; NeedNone once the game is over.
	Kind NeedKind
	// Seat is the seat that must act: the mover, the committer, the opener,
	// the receiver of a deal. For NeedRandom it is the seat that acts on the
	// roll (its contribution is taken last), or NoSeat.
	Seat Seat
	// Seats lists every contributing seat of a NeedRandom, NeedChoice or
	// NeedShuffle, in seat order.
	Seats []Seat
	// Name names the commitment, roll, choice or deck.
	Name string
	// Size is the number of leaves of a NeedCommit or cards of a NeedShuffle.
	Size int
	// Count is how many values a NeedRandom draws or a NeedDeal deals.
	Count int
	// Bound is the exclusive upper bound of each value of a NeedRandom.
	Bound int
	// Open lists slots that the input must open: the cells of an answer, the
	// slots of a NeedOpen.
	Open []Slot
	// Auto marks a move that the rules fix given the seat's secrets (such as
	// answering a volley); the seat's [Answerer] produces it.
	Auto bool
	// Prompt says in a few words what is awaited, for logs and the UI;
	// one that names a seat is set with WithPrompt.
	Prompt string
	said   string // Prompt with its seats marked (WithPrompt)
}

// WithPrompt returns the need with w as its prompt: Prompt is w's text,
// and [Need.Asks] keeps the seats it names apart, for an interface to name
// them.
func (n Need) WithPrompt(w Words) Need {
	n.Prompt, n.said = w.text, w.said
	return n
}

// Asks returns the prompt as Words (the seats it names apart when it was
// set with WithPrompt and not changed since).
func (n Need) Asks() Words { return agree(n.Prompt, n.said) }

// Opened is a hidden value whose opening the referee has checked against its
// commitment.
type Opened struct {
	Slot  Slot   `json:"slot"`
	Value []byte `json:"value"`
}

// Commitment is the public record of a committed vector.
type Commitment struct {
	Owner Seat
	Name  string
	Size  int
	Root  Digest
}

// Input is one input to a game, already checked by the referee.
type Input struct {
	// Kind must equal the kind of the game's current need.
	Kind NeedKind
	// Seat is the seat the input comes from; NoSeat for joint values.
	Seat Seat
	// Move is the game's encoding of a move (NeedMove).
	Move []byte
	// Opened carries checked openings (NeedMove, NeedOpen).
	Opened []Opened
	// Commitment is the committed vector (NeedCommit).
	Commitment *Commitment
	// Random holds the values of a joint roll (NeedRandom).
	Random []int
	// Choices holds the opened choice of each seat of a NeedChoice, in the
	// order of Need.Seats.
	Choices [][]byte
	// Cards holds the deck positions dealt to the seat (NeedDeal).
	Cards []int
}

// Event is something that happened while applying an input, worth showing to
// the players. Build one with [Eventf] when its text names seats, so that
// an interface can name them ([Event.Say]).
type Event struct {
	Seat Seat   // the seat it concerns, or NoSeat
	Kind string // a short machine-readable tag, such as "hit" or "sunk"
	Text string // one line for people, seats written as "seat N"
	said string // Text with its seats marked (Eventf), for Say
}

// Outcome is how a game ended.
type Outcome struct {
	Done    bool   // the game is over
	Winners []Seat // the winning seats (a team may win together); empty on a draw
	Draw    bool   // nobody won
	Reason  string // why it ended, such as "sank the whole fleet"; seats written "seat N"
	said    string // Reason with its seats marked (WithReason)
}

// WithReason returns the outcome with w as its reason: Reason is w's text,
// and [Outcome.Why] keeps the seats it names apart, for an interface to
// name them. A reason naming no seat may be set as Reason directly.
func (o Outcome) WithReason(w Words) Outcome {
	o.Reason, o.said = w.text, w.said
	return o
}

// Why returns the reason as Words (the seats it names apart when it was
// set with WithReason and not changed since).
func (o Outcome) Why() Words { return agree(o.Reason, o.said) }

// Game is one match of one game, from setup to the end.
type Game interface {
	// Next reports what the game needs next; Kind NeedNone once it is over.
	Next() Need
	// Apply consumes exactly one input. An input that does not fit the
	// current need or breaks a rule returns an error (wrapping
	// [ErrIllegal], or a [*Fault]) and leaves the game unchanged.
	Apply(in Input) ([]Event, error)
	// MustOpen lists the slots a move by seat must open: those of the
	// current need's Open list and those the move itself implies. It
	// returns an error for a move that cannot be decoded.
	MustOpen(seat Seat, move []byte) ([]Slot, error)
	// Hash is a digest of the whole public state.
	Hash() Digest
	// Outcome reports the result; Done is false while the game goes on.
	Outcome() Outcome
	// Clone returns an independent copy, for bots that look ahead.
	Clone() Game
}

// Secrets gives one seat read access to its own hidden values.
type Secrets interface {
	// Value returns the committed value at slot, if this seat knows it.
	Value(s Slot) ([]byte, bool)
}

// Answerer is implemented by games with Auto needs: it produces the answer
// the rules dictate for seat, given that seat's secrets.
type Answerer interface {
	Answer(seat Seat, n Need, sec Secrets) ([]byte, error)
}

// ChoiceOpener is implemented by games whose joint choice (a NeedChoice) is
// followed, once every choice is open and keeps the rules, by a NeedOpen of
// each chooser in turn and nothing between, each opening only what the
// chooser's own choice names. Every choice is sealed by then, so the
// fairness layer lets a chooser send its opening together with its reveal
// instead of after the others' (a parallel group); both answers must be
// exactly what the game will ask.
type ChoiceOpener interface {
	// OpensAfter returns the seats whose NeedOpen follow choice n, in
	// the order the game will ask them.
	OpensAfter(n Need) []Seat
	// OpenOf returns the NeedOpen of seat that follows choice n, seat's
	// own choice being choice.
	OpenOf(n Need, seat Seat, choice []byte) (Need, error)
}

// RollFollower is implemented by games that can say, while they ask a roll,
// which rolls follow it one after another whatever the values drawn (Oceans:
// who plays first, then each player's deal). No decision comes between, so
// the fairness layer takes every seat's dice shares of those rolls at once
// (a run of rolls) instead of one roll after another. The answer must be
// exact: a roll listed is asked next whatever the values of the rolls before
// it, and nothing else comes between.
type RollFollower interface {
	// RollsAfter returns the rolls the game asks after the roll it asks
	// now, in order. Each gives at least the roll's Kind (NeedRandom) and
	// Seats (its contributors); the fields that depend on the values
	// drawn before (the seat that acts on it, its name, its bound) may be
	// zero. Nil when what follows depends on the values.
	RollsAfter() []Need
}

// Decision is what an agent decides for a need.
type Decision struct {
	Move   []byte   // NeedMove
	Leaves [][]byte // NeedCommit: the hidden values, Need.Size of them
	Choice []byte   // NeedChoice
}

// Agent decides for one seat: a bot, or a person through the interface.
type Agent interface {
	// Decide returns the seat's decision for need, given the public game g
	// (which it must not change) and the seat's own secrets. It may block
	// until a person has decided; it returns ctx.Err() when ctx ends first.
	Decide(ctx context.Context, g Game, seat Seat, sec Secrets, n Need) (Decision, error)
}

// Outer is implemented by games in which a seat can be out of the game
// before the match ends (a squadron shot down in a 3-4 player Mission
// Command Air match). The engine of such a game must ask an out seat for
// nothing more: no move, no opening, and no share of a joint roll, choice
// or shuffle; the referee uses Out to ask the seat once to publish what a
// shared deck still needs from it, and then never waits for it again.
type Outer interface {
	Out(seat Seat) bool
}

// Remover is implemented by games in which a player who leaves (or goes
// silent past the give-up time) is taken off the table while the others
// play on: the free-for-all of 3-4 player Mission Command Air, whose
// rulebook winner is the last player in the game. The fairness layer
// sequences the departure in the signed chain, so every peer and the
// auditor call Remove at the same place; it is a pure input like Apply.
type Remover interface {
	// PlaysOn reports whether the match goes on without seat if it leaves
	// now (false: its leaving ends the match as a forfeit, Forfeiter).
	PlaysOn(seat Seat) bool
	// Remove takes seat off the table: the engine asks it for nothing
	// more, ever ([Outer] reports it out). A joint need it was part of
	// loses it. It fails, changing nothing, where PlaysOn is false.
	Remove(seat Seat) ([]Event, error)
}

// Forfeiter is implemented by games whose rules say who wins when a player
// forfeits in a match of more than two (the other team, in a team game);
// without it every other seat wins. The referee and the auditor both ask
// it, so the live result and the audited one are the same.
type Forfeiter interface {
	ForfeitOutcome(seat Seat) Outcome
}

// ErrIllegal is wrapped by every error a game returns for input that breaks
// the rules.
var ErrIllegal = errors.New("illegal input")

// IllegalError is the error [Illegal] returns: input that breaks the
// rules, with the rule it breaks in words. An interface that shows a
// refusal to a player takes Reason with errors.As, never by cutting the
// error's text, which layers of context may wrap.
type IllegalError struct {
	Reason string // the rule broken, for people: "C-4 was shot at already"
	said   string // Reason with its seats marked ([Words])
}

// Error returns "illegal input: " and the reason.
func (e *IllegalError) Error() string { return ErrIllegal.Error() + ": " + e.Reason }

// Unwrap returns [ErrIllegal], so that errors.Is finds it.
func (e *IllegalError) Unwrap() error { return ErrIllegal }

// Why returns the reason as Words: a refusal shown to a player names the
// seats the rule speaks of by their players (Words.Say).
func (e *IllegalError) Why() Words { return agree(e.Reason, e.said) }

// Words returns the error's text as Words ([Worded]).
func (e *IllegalError) Words() Words { return Wordsf("%v: %s", ErrIllegal, e.Why()) }

// Illegal returns an [*IllegalError] (wrapping [ErrIllegal]) with the given
// explanation, its seats kept apart as [Wordsf] keeps them.
func Illegal(format string, args ...any) error {
	w := Wordsf(format, args...)
	return &IllegalError{Reason: w.text, said: w.said}
}

// CheckKind is the first check of a game's Apply: it returns an error
// wrapping [ErrIllegal] if the match is over (n is a NeedNone) or if in is
// not the kind of input n asks for, and nil otherwise.
func CheckKind(n Need, in Input) error {
	if n.Kind == NeedNone {
		return Illegal("the match is over")
	}
	if in.Kind != n.Kind {
		return Illegal("expected a %s input, got %s", n.Kind, in.Kind)
	}
	return nil
}

// NewFunc adapts a game's own constructor to [Spec.New]: on error it
// returns a nil Game, never a typed nil pointer inside the interface.
func NewFunc[G Game](f func(Setup) (G, error)) func(Setup) (Game, error) {
	return func(s Setup) (Game, error) {
		g, err := f(s)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

// Fault is an error that names the seat to blame when that is not the seat
// the input came from: a bad choice inside a NeedChoice, or a deferred check
// that an opening settles against an earlier claim.
type Fault struct {
	Seat Seat
	Err  error
}

// Error returns the seat and the reason.
func (f *Fault) Error() string { return f.Words().String() }

// Words returns the error's text as Words ([Worded]).
func (f *Fault) Words() Words { return Wordsf("%s: %v", f.Seat, f.Err) }

// Unwrap returns the underlying error.
func (f *Fault) Unwrap() error { return f.Err }

// Blame returns the seat an error from Apply blames: the seat a [*Fault]
// names, or else from.
func Blame(err error, from Seat) Seat {
	var f *Fault
	if errors.As(err, &f) {
		return f.Seat
	}
	return from
}

// Spec describes a game to the rest of the program.
type Spec struct {
	// Name is the game's short name, as on the command line ("ubuild").
	Name string
	// Title is the game's full name.
	Title string
	// Rules names the rules version, recorded in every transcript.
	Rules string
	// Variants lists the variant names; the first is the default.
	Variants []string
	// MinSeats and MaxSeats bound the number of players.
	MinSeats, MaxSeats int
	// New starts a match.
	New func(s Setup) (Game, error)
}

// Setup is what every match starts from.
type Setup struct {
	Seats   int    // number of players
	Variant string // one of Spec.Variants; "" means the default
}

// MarshalText encodes the digest as lower-case hex (so JSON shows a string).
func (d Digest) MarshalText() ([]byte, error) {
	out := make([]byte, 2*len(d))
	hex.Encode(out, d[:])
	return out, nil
}

// UnmarshalText decodes exactly 64 hex digits.
func (d *Digest) UnmarshalText(b []byte) error {
	if len(b) != 2*len(d) {
		return fmt.Errorf("digest: want %d hex digits, got %d", 2*len(d), len(b))
	}
	if _, err := hex.Decode(d[:], b); err != nil {
		return fmt.Errorf("digest: %w", err)
	}
	return nil
}
