package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// srcFile is one parsed source file, kept with its bytes so that mutants
// are byte ranges of the original.
type srcFile struct {
	path string // relative to the module root
	src  []byte
	fset *token.FileSet
	file *ast.File
}

func parseFile(path string) (*srcFile, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	return &srcFile{path: path, src: src, fset: fset, file: f}, nil
}

// packageFiles parses every non-test .go file of the package directory
// dir (relative to the module root), in name order.
func packageFiles(dir string) ([]*srcFile, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*srcFile
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parseFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	return out, nil
}

func (f *srcFile) off(p token.Pos) int { return f.fset.Position(p).Offset }

func (f *srcFile) line(off int) int {
	tf := f.fset.File(f.file.Pos())
	return tf.Line(tf.Pos(off))
}

func (f *srcFile) text(n ast.Node) string { return string(f.src[f.off(n.Pos()):f.off(n.End())]) }

// funcKey names a function declaration as the named mutants do: "name"
// for a function, "Recv.name" for a method (pointer or not).
func funcKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok { // a generic receiver
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// findFunc returns the one declaration named key among files.
func findFunc(files []*srcFile, key string) (*srcFile, *ast.FuncDecl, error) {
	var hits []string
	var file *srcFile
	var decl *ast.FuncDecl
	for _, f := range files {
		for _, d := range f.file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && funcKey(fn) == key {
				file, decl = f, fn
				hits = append(hits, f.path)
			}
		}
	}
	switch len(hits) {
	case 0:
		return nil, nil, fmt.Errorf("function %s not found", key)
	case 1:
		return file, decl, nil
	}
	return nil, nil, fmt.Errorf("function %s found %d times (%s)", key, len(hits), strings.Join(hits, ", "))
}

// squeeze drops all white space, so that patterns survive gofmt and line
// breaks.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// short abbreviates source text for a one-line description.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 70 {
		s = s[:67] + "…"
	}
	return s
}
