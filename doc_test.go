package chat_test

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// codeMapSections reads doc.go's sections "# Code map" and "# Test files" and returns, for each,
// the names its indented lines begin with (the areas, and the test machinery's prefixes).
func codeMapSections(t *testing.T) (areas, testPrefixes map[string]bool) {
	t.Helper()
	f, err := os.Open("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	areas, testPrefixes = map[string]bool{}, map[string]bool{}
	var into map[string]bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "// # Code map":
			into = areas
		case line == "// # Test files":
			into = testPrefixes
		case strings.HasPrefix(line, "// # "), !strings.HasPrefix(line, "//"):
			into = nil
		case into != nil && strings.HasPrefix(line, "//\t") && !strings.HasPrefix(line, "//\t "):
			into[strings.Fields(line[len("//\t"):])[0]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(areas) == 0 || len(testPrefixes) == 0 {
		t.Fatalf("doc.go has no code map: areas %v, test prefixes %v", areas, testPrefixes)
	}
	return areas, testPrefixes
}

// TestFilesFollowCodeMap: every Go file of the root package is named <area>.go or
// <area>_<aspect>.go with an area of doc.go's code map (test files may also use a prefix of its
// test machinery), so that the map tells where everything lives.
func TestFilesFollowCodeMap(t *testing.T) {
	t.Parallel()
	areas, testPrefixes := codeMapSections(t)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if name == "doc.go" {
			continue
		}
		base := strings.TrimSuffix(name, ".go")
		isTest := strings.HasSuffix(base, "_test")
		base = strings.TrimSuffix(base, "_test")
		prefix, _, _ := strings.Cut(base, "_")
		if areas[prefix] || (isTest && testPrefixes[prefix]) {
			continue
		}
		t.Errorf("%s: %q is not an area of doc.go's code map; name the file <area>_<aspect>.go, or add the area to the map", name, prefix)
	}
}

// TestServiceDocListsEveryMethod keeps the index of the Service's doc comment (service.go: its
// methods by area) exact: every exported method of *Service listed once, nothing else.
func TestServiceDocListsEveryMethod(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("service.go")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(src), "\n// Service is the chat engine.")
	if !ok {
		t.Fatal("service.go has no doc comment of Service")
	}
	doc, _, _ = strings.Cut(doc, "\ntype Service struct")
	listed := map[string]int{}
	for _, line := range strings.Split(doc, "\n") {
		if _, items, ok := strings.Cut(line, ": "); ok && strings.HasPrefix(line, "//   - ") {
			line = items
		} else if !strings.HasPrefix(line, "//     ") {
			continue
		}
		for _, name := range strings.Split(strings.TrimPrefix(line, "//"), ",") {
			if name = strings.TrimSpace(name); name != "" {
				listed[name]++
			}
		}
	}
	hooks, err := os.ReadFile("export_test.go") // the tests' own methods
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[*chat.Service]()
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		if strings.Contains(string(hooks), "func (s *Service) "+name+"(") {
			continue
		}
		if listed[name] != 1 {
			t.Errorf("Service.%s is listed %d times in Service's doc comment (service.go)", name, listed[name])
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("Service's doc comment lists %q, which is no method of Service", name)
	}
}
