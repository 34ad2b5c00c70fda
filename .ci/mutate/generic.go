package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"slices"
)

var negated = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.GTR: token.LEQ, token.LEQ: token.GTR,
}

var boundary = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS,
	token.GTR: token.GEQ, token.GEQ: token.GTR,
}

// genericMutants samples up to sample mutants (0: all) from each non-test
// file of pkg (only the named files, if any), deterministically for seed.
func genericMutants(pkg string, only []string, sample int, seed uint64) ([]Mutant, error) {
	files, err := packageFiles(pkg)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	matched := 0
	for _, f := range files {
		if len(only) > 0 && !slices.Contains(only, filepath.Base(f.path)) {
			continue
		}
		matched++
		ms := sites(f, pkg)
		if sample > 0 && len(ms) > sample {
			h := fnv.New64a()
			h.Write([]byte(filepath.Base(f.path)))
			r := rand.New(rand.NewPCG(seed, h.Sum64()))
			pick := r.Perm(len(ms))[:sample]
			slices.Sort(pick)
			var kept []Mutant
			for _, i := range pick {
				kept = append(kept, ms[i])
			}
			ms = kept
		}
		out = append(out, ms...)
	}
	if len(only) > 0 && matched != len(only) {
		return nil, fmt.Errorf("-files: %d of %v found in %s", matched, only, pkg)
	}
	return out, nil
}

// sites lists every generic mutant of one file, in source order.
func sites(f *srcFile, pkg string) []Mutant {
	var out []Mutant
	add := func(fn string, start, end int, repl, desc string) {
		out = append(out, Mutant{Pkg: pkg, File: f.path, Line: f.line(start), Start: start, End: end, Repl: repl,
			Desc: fmt.Sprintf("in %s, %s", fn, desc)})
	}
	for _, d := range f.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		key := funcKey(fn)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				op := f.off(n.OpPos)
				end := op + len(n.Op.String())
				expr := short(f.text(n))
				if to, ok := negated[n.Op]; ok {
					add(key, op, end, to.String(), fmt.Sprintf("negated: `%s` with %s -> %s", expr, n.Op, to))
				}
				if to, ok := boundary[n.Op]; ok {
					add(key, op, end, to.String(), fmt.Sprintf("boundary: `%s` with %s -> %s", expr, n.Op, to))
				}
			case *ast.IfStmt:
				if isGuard(n) {
					c := f.text(n.Cond)
					add(key, f.off(n.Cond.Pos()), f.off(n.Cond.End()), "false && ("+c+")",
						fmt.Sprintf("guard dropped: `if %s { return … }` never fires", short(c)))
				}
			case *ast.Ident:
				if n.Name == "true" || n.Name == "false" {
					to := map[string]string{"true": "false", "false": "true"}[n.Name]
					add(key, f.off(n.Pos()), f.off(n.End()), to, fmt.Sprintf("boolean flipped: %s -> %s", n.Name, to))
				}
			}
			return true
		})
	}
	slices.SortStableFunc(out, func(a, b Mutant) int { return a.Start - b.Start })
	for i := range out {
		out[i].ID = fmt.Sprintf("%s:%d", filepath.Base(f.path), out[i].Line)
	}
	return out
}

// isGuard reports whether s is `if cond { …; return …, x }` with no else,
// where x is not nil: a check that refuses something.
func isGuard(s *ast.IfStmt) bool {
	if s.Else != nil || len(s.Body.List) == 0 {
		return false
	}
	ret, ok := s.Body.List[len(s.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	last, isIdent := ret.Results[len(ret.Results)-1].(*ast.Ident)
	return !isIdent || last.Name != "nil" && last.Name != "true" && last.Name != "false"
}
