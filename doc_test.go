package chat_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
