package areagraph_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// areaPackages is the package each area of the root (its doc.go's code map) is to become, in the
// order of those packages from the bottom: an area may refer to the areas of its own package
// and of the packages before it, never to those after it, so the graph of the packages has no
// cycle. kernel is the adapters of internal/engine and internal/world (read, mutate, the ops,
// the aliases of the engine's public types); facade is what stays in the root: the Service
// and New (which reach every area: those references are back edges until the areas become
// packages), register and the queues, the bus, and the root files of the areas that are
// packages already.
var areaPackages = [][2]string{
	{"kernel", "kernel"},
	// (The areas of org, people, files and conversations are packages now: below compose, and
	// reached through their facades.)
	// The facade: the Service, register and the queues, the bus, and the areas that are
	// packages already (their root files alias their types and delegate).
	{"service", "facade"}, {"events", "facade"}, {"bus", "facade"}, {"drafts", "facade"},
	{"compose", "facade"}, {"people", "facade"}, {"org", "facade"}, {"files", "facade"}, {"conversations", "facade"}, {"bots", "facade"}, {"export", "facade"}, {"notify", "facade"}, {"retention", "facade"},
}

// root is the directory of the root package, from this one.
const root = "../.."

// TestAreaGraph computes which areas of the root package refer to which (every identifier resolved
// by the type checker: functions, types, methods, fields, constants, variables) and fails on a
// reference up the order of areaPackages: the graph of the areas has no cycle.
func TestAreaGraph(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("type-checks the root package from its export data")
	}
	edges, err := areaEdges(root)
	if err != nil {
		t.Fatal(err)
	}
	rank, pkgOf := map[string]int{}, map[string]string{}
	for _, ap := range areaPackages {
		if _, ok := rank[ap[1]]; !ok {
			rank[ap[1]] = len(rank)
		}
		pkgOf[ap[0]] = ap[1]
	}
	for e, example := range edges {
		from, to := e[0], e[1]
		pf, okf := pkgOf[from]
		pt, okt := pkgOf[to]
		if !okf || !okt {
			t.Errorf("area %q or %q is not in areaPackages (%s)", from, to, example)
			continue
		}
		if rank[pt] > rank[pf] {
			t.Errorf("area %s refers to %s, whose package is above its own in areaPackages (%s): move the name down, or the code up", from, to, example)
		}
	}
}

// areaEdges type-checks the package in dir (its production files) from its dependencies'
// export data and returns, for each pair of different areas (a file's name up to its first
// '_'), one example of a reference from the first to a name declared in the second.
func areaEdges(dir string) (map[[2]string]string, error) {
	out, err := exec.Command("go", "list", "-C", dir, "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		path, file, _ := strings.Cut(sc.Text(), "\t")
		exports[path] = file
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check("github.com/teamchat/chat", fset, files, info)
	if err != nil {
		return nil, err
	}
	area := func(pos token.Pos) string {
		a, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(fset.Position(pos).Filename), ".go"), "_")
		return a
	}
	edges := map[[2]string]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !declaredByArea(pkg, obj) {
			continue
		}
		from, to := area(id.Pos()), area(obj.Pos())
		if from == to {
			continue
		}
		example := fmt.Sprintf("%s at %s", obj.Name(), fset.Position(id.Pos()))
		if old, ok := edges[[2]string{from, to}]; !ok || example < old {
			edges[[2]string{from, to}] = example
		}
	}
	return edges, nil
}

// declaredByArea reports whether obj is a name an area declares for others: a package-level
// name, a method or a field (not a local variable, parameter or label).
func declaredByArea(pkg *types.Package, obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return true
	case *types.Var:
		return o.IsField() || o.Parent() == pkg.Scope()
	case *types.Label, *types.PkgName:
		return false
	}
	return obj.Parent() == pkg.Scope()
}
