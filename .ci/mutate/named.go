package main

import (
	"fmt"
	"go/ast"
	"regexp"
	"strings"
)

// planted is one named bug: in function Func of package Pkg, Edit.
type planted struct {
	Name  string // short, stable: what -run matches and the report shows
	Check string // the check the bug removes, in the words of finding 10
	Pkg   string
	Func  string // "name" or "Recv.name"
	Edit  edit
}

// The named list. Each entry is a bug a review planted and found the tests
// missed (issue 12, finding 10), or a close sibling of one; each must stay
// caught. The edits are located by function and text, never by line, and
// fail with "pattern not found" if the code no longer reads that way:
// update the entry with the code, never delete it to make a run pass.
var plantedBugs = []planted{
	{"chain-prev", "an envelope's prev must be the hash of the message before it",
		"fairness", "Match.check", neverIf{"!hexIs(e.Prev, m.prev)"}},
	{"chain-seq", "an envelope must be numbered the next in sequence",
		"fairness", "Match.check", neverIf{"e.Seq != m.seq+1"}},
	{"broken-accepts", "a match stopped by a violation accepts nothing more",
		"fairness", "Match.accept", neverIf{"m.broken != nil"}},
	{"broken-stages", "a match stopped by a violation stages nothing more",
		"fairness", "Match.Stage", neverIf{"m.broken != nil"}},
	{"done-accepts", "a finished match accepts no message",
		"fairness", "Match.check", neverIf{"m.Done()"}},
	{"envelope-size", "an envelope over MaxEnvelope bytes is refused",
		"fairness", "DecodeEnvelope", neverIf{"len(b) > MaxEnvelope"}},
	{"envelope-empty-body", "an envelope without a body is refused",
		"fairness", "DecodeEnvelope", neverIf{"len(e.Body) == 0"}},
	{"envelope-compact-body", "a line, an envelope and its body decode only in the one compact form Salvo writes",
		"fairness", "decodeCanonical", neverIf{"!bytes.Equal(b, c)"}},
	{"dice-seed-ignored", "the dice chain hangs from its secret seed, not from anything public",
		"fairness", "newChainFromSeed", replace{"links[n] = seed", "links[n] = match"}},
	{"dice-seed-not-drawn", "the dice chain's seed is drawn at random",
		"fairness", "NewChain", replace{"rand.Read(seed[:])", "rand.Read(seed[:0])"}},
	{"dice-next-at-chain-end", "a share names a seat's next dice chain only when it reveals the last link of the chain before",
		"fairness", "Match.linkAfter", neverIf{"!last"}},
	{"preshare-void-on-decision", "a decision voids every pending pre-share, so no roll after it takes a link its decider saw",
		"fairness", "Match.afterInput", replace{"case !undecided(in.T):", "case false:"}},
	{"preshare-next-voids-other", "naming a next dice chain voids the other seat's pending pre-shares",
		"fairness", "Match.afterInput", replace{"case newChain && !m.owes(other(from)):", "case false:"}},
	{"preshare-keep-in-progress", "a share naming a next chain voids the other's pre-shares after the one the roll in progress takes",
		"fairness", "Match.afterInput", neverIf{"newChain && st.Seat == other(from)"}},
	{"preshare-must-name-next", "at its chain's last link a seat must name its next chain while the other has pre-shares pending",
		"fairness", "Match.linkAfter", neverIf{"last && m.Preshared(other(seat)) > 0"}},
	{"preshare-not-before-decision", "a pre-share is refused where the match waits for the other seat's decision",
		"fairness", "Match.preshareWhy", replace{"case !undecided(st.Kind):", "case false:"}},
	{"preshare-no-next-against-pending", "a pre-share may not name a next dice chain while the other seat has pre-shares pending",
		"fairness", "Match.applyPreshare", neverIf{"in.Next != \"\" && m.Preshared(other(seat)) > 0"}},
	{"preshare-two-player", "pre-shares are refused in matches of more than two players",
		"fairness", "Match.preshareWhy", neverIf{"len(m.keys) != 2"}},
	{"preshare-seat-at-table", "a pre-share from a seat not at the table (a stranger's message staged unchecked by a replay) is refused, not indexed",
		"fairness", "Match.preshareWhy", neverIf{"seat != 0 && seat != 1"}},
	{"preshare-group-places", "a message that closes with pre-shares is one contribution to its parallel group, whose members keep their places",
		"fairness", "Match.advance", replace{"contrib := contributions(inputs)", "contrib := inputs"}},
	{"rolls-run-chain-end", "a run of rolls ends with the roll in which a seat reveals its chain's last link (it names a next chain, freely chosen)",
		"fairness", "Match.rollsRun", replace{"pos[s]%m.chainLen[s] == 0", "false"}},
	{"rolls-run-no-preshare", "a seat that still owes a share at a place of the run of rolls sends no pre-share, which would take that place",
		"fairness", "Match.preshareWhy", replace{"case m.laterPlaceInRun(seat):", "case false:"}},
	{"rolls-run-seat-order", "a later roll of a run of rolls takes its seats in seat order, as its places were predicted at the base",
		"fairness", "Match.order", replace{"m.laterRollOfRun()", "false"}},
	{"member-preshares-last-share", "a member holds its one contribution, but for the last share of a group of one roll's shares, which may close with pre-shares",
		"fairness", "Match.checkMember", replace{"len(body.Inputs) > 1 && !g.closedByPreshares(i)", "false"}},
	{"member-preshares-one-roll", "a run of several rolls is predicted exactly: its last member holds its share alone, without pre-shares",
		"fairness", "parGroup.closedByPreshares", replace{" || p.Roll != g.places[0].Roll", ""}},
	{"rolls-run-broken-order", "a roll started by a message that breaks a run of rolls takes the usual order whenever it is asked, so the sender and its peers agree",
		"fairness", "Match.laterRollOfRun", replace{"g != nil && m.msg.standing() &&", "g != nil &&"}},
	{"bad-member-proved", "a member signed for its place that holds what no member there may is proved by its signature",
		"fairness", "needsWitness", replace{" || errors.Is(v.Err, ErrBadMember)", ""}},
	{"preshare-chain", "a pre-share must extend its sender's dice chain",
		"fairness", "Match.applyPreshare", neverIf{"VerifyLink(m.id, seat, prev, link)"}},
	{"dice-chains-own-seeds", "each of a seat's dice chains hangs from its own seed, so no revealed link tells a later one",
		"fairness", "Dice.chain", replace{"digest(d.seed).int(i)", "digest(d.seed)"}},
	{"player-key-verifies", "a player's expanded key accepts only what ZIP-215 accepts",
		"fairness", "playerKey.verify", replace{"voi.VerifyExpandedWithOptions(k.x, msg, sig, sigOptions)", "true"}},
	{"audit-batch-marks-valid", "the audit's signature batch marks verified only the envelopes whose signatures hold",
		"fairness", "sigBatch.verify", replace{"if all || ", "if all || true || "}},
	{"audit-batch-equation", "the audit's signature batch holds only when every signature's weighted equation sums to a small-order point",
		"fairness", "sigBatch.holds", replace{".IsSmallOrder()", ".IsSmallOrder() || true"}},
	{"merkle-index-bound", "an opening's index must lie inside its vector",
		"fairness", "VerifyPath", neverIf{"i < 0 || i >= n"}},
	{"closing-sig-verify", "a closing record's signature must verify against its writer",
		"fairness", "Closing.Verify", neverIf{"verifySignature(pub, d[:], sig)"}},
	{"closing-sig-audit", "the audit checks a closing record's signature",
		"fairness", "auditor.take", replace{"ln.Closing.Verify()", "error(nil)"}},
	{"closing-sig-adopt", "a referee adopts only a closing record whose signature verifies",
		"fairness", "Referee.adopt", neverIf{"c.Verify()"}},
	{"joint-forfeit-compare", "the joint audit compares the results of two records, two forfeits' forfeiting seats included",
		"fairness", "sameResult", replace{"slices.Equal(a.Outcome.Winners, b.Outcome.Winners)", "true"}},
	{"remove-silence-first", "a seat's silence is claimed only as the first input of a message, never in the message that made the match wait for it",
		"fairness", "Match.removalFits", replace{"case left == nil && m.inMessage > 0:", "case false:"}},
	{"remove-left-sent-later", "a seat that signed a message after the one it says it left after did not leave there",
		"fairness", "Match.leftFits", replace{"case !m.noneSentBy(gone, c.Seq):", "case false:"}},
	{"ubuild-claims-after-other-ship", "settling one ship's deferred claims checks every claim about it, whatever comes between",
		"engine/ubuild", "state.settleClaims", replace{"continue", "break"}},
}

// edit locates one planted change inside a function.
type edit interface {
	locate(f *srcFile, fn *ast.FuncDecl) (start, end int, repl, desc string, err error)
}

// neverIf makes the one if-statement of the function whose header (init
// and condition) mentions the text never fire: its condition becomes
// `false && (cond)`, which compiles wherever the condition did and is the
// same as deleting a guard without an else.
type neverIf struct{ mentions string }

func (e neverIf) locate(f *srcFile, fn *ast.FuncDecl) (int, int, string, string, error) {
	want := squeeze(e.mentions)
	var hits []*ast.IfStmt
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok {
			header := string(f.src[f.off(s.Pos()):f.off(s.Body.Lbrace)])
			if strings.Contains(squeeze(header), want) {
				hits = append(hits, s)
			}
		}
		return true
	})
	if len(hits) != 1 {
		return 0, 0, "", "", fmt.Errorf("pattern not found: %d if-statements mention %q, want exactly 1", len(hits), e.mentions)
	}
	s := hits[0]
	text := f.text(s.Cond)
	header := string(f.src[f.off(s.Pos()):f.off(s.Body.Lbrace)])
	return f.off(s.Cond.Pos()), f.off(s.Cond.End()), "false && (" + text + ")", fmt.Sprintf("`%s` never fires", short(header)), nil
}

// replace changes the one occurrence of old in the function's source.
type replace struct{ old, new string }

func (e replace) locate(f *srcFile, fn *ast.FuncDecl) (int, int, string, string, error) {
	start := f.off(fn.Pos())
	body := string(f.src[start:f.off(fn.End())])
	if n := strings.Count(body, e.old); n != 1 {
		return 0, 0, "", "", fmt.Errorf("pattern not found: %q occurs %d times, want exactly 1", e.old, n)
	}
	at := start + strings.Index(body, e.old)
	return at, at + len(e.old), e.new, fmt.Sprintf("`%s` -> `%s`", short(e.old), short(e.new)), nil
}

// namedMutants locates every planted bug whose name matches run (nil: all).
// A bug whose code cannot be found is an error, never a skip.
func namedMutants(run *regexp.Regexp) ([]Mutant, error) {
	parsed := map[string][]*srcFile{}
	var out []Mutant
	var missing []string
	for _, p := range plantedBugs {
		if run != nil && !run.MatchString(p.Name) {
			continue
		}
		files, ok := parsed[p.Pkg]
		if !ok {
			var err error
			if files, err = packageFiles(p.Pkg); err != nil {
				return nil, err
			}
			parsed[p.Pkg] = files
		}
		f, fn, err := findFunc(files, p.Func)
		if err == nil {
			var start, end int
			var repl, desc string
			if start, end, repl, desc, err = p.Edit.locate(f, fn); err == nil {
				out = append(out, Mutant{ID: p.Name, Pkg: p.Pkg, File: f.path, Line: f.line(start),
					Desc: fmt.Sprintf("in %s, %s (%s)", p.Func, desc, p.Check), Start: start, End: end, Repl: repl, Named: true, First: namedFirst[p.Name]})
				continue
			}
		}
		missing = append(missing, fmt.Sprintf("  %s (%s, in %s): %v", p.Name, p.Pkg, p.Func, err))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("pattern not found for %d named mutant(s); the code changed, so update their entries in .ci/mutate/named.go:\n%s",
			len(missing), strings.Join(missing, "\n"))
	}
	return out, nil
}
