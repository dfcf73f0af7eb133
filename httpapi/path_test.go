package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/teamchat/chat/messages"
)

func TestParseID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want messages.ID
		ok   bool
	}{
		{"1", 1, true},
		{"0", 0, true},
		{"007", 7, true},
		{"999999999999999999", 999999999999999999, true}, // 18 digits
		{"1000000000000000000", 0, false},                // 19 digits
		{"", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{"hamlet@zulip.com", 0, false},
		{"١٢", 0, false}, // digits of another script
	}
	for _, tt := range tests {
		got, ok := parseID[messages.ID](tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseID(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestPathIDsReadByPathID keeps pathID the one reader of ids in the path: no handler indexes
// the path values with a name ending in _id itself.
func TestPathIDsReadByPathID(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "path.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			sel, ok := ix.X.(*ast.SelectorExpr)
			lit, isLit := ix.Index.(*ast.BasicLit)
			if ok && sel.Sel.Name == "path" && isLit && strings.HasSuffix(lit.Value, `_id"`) {
				t.Errorf("%s: reads %s from the path itself; use pathID", fset.Position(ix.Pos()), lit.Value)
			}
			return true
		})
	}
}
