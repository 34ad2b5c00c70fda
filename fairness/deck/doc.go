// Package deck is mental card play for a deck shared by 2 to 4 (up to 16)
// seats over the ristretto255 group: nobody, not even a coalition of all but
// one seat, learns the order of the deck or a card dealt to someone else,
// and every step carries a proof, so a seat that cheats is caught at the
// step where it cheats. It does no networking: the referee (package
// fairness) sends each step as one signed message.
//
// # Protocol
//
//  1. Keys. For each deck every seat draws an ElGamal key share x_i and
//     publishes X_i = x_i·G with a Schnorr proof of knowledge bound to its
//     seat, the match and the deck ([Params.GenerateKey],
//     [Params.NewJointKey]); the joint key is X = ΣX_i. The proof stops a
//     rogue-key attack (a seat publishing X_i = Y − ΣX_j to own the key).
//  2. Start. Card value v ∈ 1..MaxValue is a fixed group element M_v (a
//     hash to the group, nobody knows its discrete log); the starting deck
//     is public: (0, M_v) for each card, the trivial mask ([Params.NewDeck]).
//  3. Shuffle. Each seat in turn re-masks every card, (C1, C2) → (C1 + ρ·G,
//     C2 + ρ·X), permutes the deck with a secret permutation, and publishes
//     a proof ([Params.Shuffle], [Params.VerifyShuffle]). The order is hidden
//     as long as one seat shuffled honestly and kept its permutation.
//  4. Deal position p to seat s: every other seat j publishes its unmasking
//     share D_j = x_j·C1 with a Chaum–Pedersen proof that log_G(X_j) =
//     log_C1(D_j) ([Params.UnmaskShare], [Params.VerifyShare]); seat s adds
//     its own share privately and reads M = C2 − ΣD ([Params.Peek]). Nobody
//     else can: they lack x_s·C1.
//  5. Play the card: seat s publishes its share too and everybody reads the
//     value ([Params.Open]).
//
// # The shuffle proof, and why this one
//
// The brief allowed a cut-and-choose shadow-shuffle proof; this package
// uses a proper shuffle argument instead: Terelius and Wikström's proof of
// a shuffle ("Proofs of restricted shuffles", AFRICACRYPT 2010), in the
// pseudo-code form of Haenni, Locher, Koenig and Dubuis ("Pseudo-code
// algorithms for verifiable re-encryption mix-nets", FC 2017 workshops),
// in additive notation. The prover commits to the permutation matrix with
// Pedersen commitments over independent generators h_1..h_n (hashes to the
// group), derives one challenge u_j per input card from everything so far,
// and proves with one sigma protocol that the committed matrix is a
// permutation (a commitment chain to Π u_{π(i)} and Σ of the columns) and
// that Σ u'_i·out_i = Σ u_j·in_j + Enc(0; ρ). It is made non-interactive by
// Fiat–Shamir: both challenges are BLAKE2b-512 hashes of the whole
// statement (joint key, input and output decks, commitments) under the
// domain, reduced to scalars. Soundness: a cheating shuffle passes with
// probability about n/ℓ + q_H/ℓ (ℓ ≈ 2^252 the group order, q_H the
// prover's hash queries), i.e. far below 2^-128 for any feasible q_H, under
// the discrete-logarithm assumption in ristretto255 (about 2^126 work). A
// cut-and-choose proof would need 128 shadow shuffles for the same bound
// (≈ 0.5 MB and seconds per shuffle); this one is 7.8 KB and tens of
// milliseconds for 60 cards.
//
// # Domain separation
//
// Every hash starts with the protocol tag "salvo/deck/1", a label naming its
// purpose (key, share, shuffle/u, shuffle/c, nonces) and the deck's domain:
// the match ID and the deck name. So a key proof, a shuffle proof or an
// unmasking share of one deck or match never verifies for another, and a
// share names and is bound to its seat, its position and the whole
// ciphertext. Keys are per deck (a reshuffle "nav/2" gets fresh keys).
//
// # Encodings
//
// All values have fixed, canonical binary encodings (MarshalBinary /
// UnmarshalBinary): elements and scalars in their 32-byte canonical forms
// (non-canonical bytes are rejected by the group library), counts as 16-bit
// big-endian, no trailing bytes. Decoders reject malformed input with
// errors wrapping [ErrMalformed]; proofs that do not verify give errors
// wrapping [ErrInvalid]. Decoding does not verify: call the Verify
// functions. Since the encodings are canonical, a decoded card or shuffle
// proof keeps the bytes it came from, and the proofs hash (and re-send)
// those bytes rather than encode the elements again; a card made here
// is encoded once. Sizes: card 64 B, deck 2 + 64n B, public key 98 B, share
// 100 B, shuffle proof 2 + 128n + 160 B (7,842 B for 60 cards).
//
// # Measured (2-core AMD EPYC, Go 1.26, this package's benchmarks; ranges
// over runs on a machine shared with other builds)
//
//   - one 60-card shuffle with its proof: 20-27 ms; its verification:
//     10-11 ms; one shuffle message (deck and proof) is 3,842 + 7,842 B;
//   - whole set-up of a 60-card deck as one peer computes it (keys, every
//     seat's shuffle proven and verified): 62-76 ms for 2 players, 90-108 ms
//     for 3, 120-138 ms for 4;
//   - dealing all 60 cards: 21-24 ms (2 players), 38-40 ms (3), 55-65 ms
//     (4), i.e. per draw about 0.35 ms, 0.65 ms and 0.95 ms (each other
//     seat makes a share, 0.16-0.21 ms, the receiver verifies it,
//     0.13-0.17 ms, and peeks);
//   - bytes per deal: 100 B per other seat (100 B for 2 players, 200 B for
//     3, 300 B for 4), plus 100 B more to play the card.
//
// # What a check costs
//
// A shuffle check of n cards recomputes 2n + 5 group elements and hashes
// them (the proof's format fixes that: the challenge covers every t).
// Most of it is irreducible with curve25519-voi's multiscalar
// multiplication: n three-term t̂_i (each ~256 doublings of its own),
// and t3, t41, t42 of about 2n + 1 terms each. What is saved: cards keep
// their tables (Card.tabs), so the tables of a shuffle's output serve the
// next shuffle's check and the unmasking shares of the dealt deck; the
// starting deck's tables are shared per value and its C1 terms (the
// identity) are left out of t42; t2 is one multiplication with ĉ_n's
// table. Issue 15, interleaved runs on a shared 2-core machine: 5-12%
// off a check from the starting deck, within the noise from a shuffled
// one, a fifth less memory per check; a 2-player Air audit's ratio to the
// yardstick 3.08-3.13 → 2.98-3.04 (3 and 4 players unchanged, 2.1-2.2).
// The 2.38 needs fewer recomputed elements, i.e. a proof whose
// challenge does not cover every t: a format change, not made here.
// referenceVerifyShuffle (tests) is the plain check every change must
// agree with, on honest and on randomly changed bytes.
//
// # Randomness
//
// [Params.GenerateKey] and [Params.Shuffle] read secret randomness from the
// io.Reader they are given: crypto/rand.Reader in play (a seeded reader only
// in tests). Proof nonces of unmasking shares are derived from the secret
// key and the card, as in Ed25519, so [Params.UnmaskShare] needs none.
package deck
