package display

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"

	"cabinet/internal/i18n"
)

// TestStaticKeys: every literal message key the display's code looks up
// (fr.tr("…"), fr.trf("…", …), i18n.T(lang, "…")) exists in both languages.
func TestStaticKeys(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := 0
	for _, fn := range files {
		if filepath.Ext(fn) != ".go" || len(fn) > 8 && fn[len(fn)-8:] == "_test.go" {
			continue
		}
		f, err := parser.ParseFile(fset, fn, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", fn, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			arg := -1
			switch sel.Sel.Name {
			case "tr", "trf":
				arg = 0
			case "T", "Tf":
				arg = 1
			}
			if arg < 0 || len(call.Args) <= arg {
				return true
			}
			lit, ok := call.Args[arg].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			key, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: unquote %s: %v", fset.Position(lit.Pos()), lit.Value, err)
			}
			found++
			for _, lang := range i18n.Langs() {
				if !i18n.Has(lang, key) {
					t.Errorf("%s: key %q missing from the %s catalogue", fset.Position(lit.Pos()), key, lang)
				}
			}
			return true
		})
	}
	if found < 50 {
		t.Errorf("found %d literal keys in the display's code, want dozens (is the scan broken?)", found)
	}
}
