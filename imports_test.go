package chat_test

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportDirection enforces the one-way flow of imports: leaf domain packages import only
// users and the standard library; queue, ratelimit and markdown import nothing of the project;
// storage imports leaves; backends import storage and leaves; chat never imports a backend or
// httpapi; httpapi never imports storage; nothing but examples imports httpapi.
func TestImportDirection(t *testing.T) {
	t.Parallel()
	const module = "github.com/teamchat/chat"
	leaves := []string{"users", "realms", "drafts", "linkifiers", "channels", "messages", "topics", "emoji", "uploads"}
	allowed := map[string][]string{
		"users":               {},
		"realms":              {"users"},
		"drafts":              {"users"},
		"linkifiers":          {},
		"channels":            {"users"},
		"messages":            {"users", "channels"},
		"topics":              {"users", "channels"},
		"uploads":             {"users", "messages"},
		"blobs":               {},
		"blobs/disk":          {"blobs"},
		"blobs/memory":        {"blobs"},
		"blobs/blobstest":     {"blobs"},
		"blobs/s3":            {"blobs"},
		"emoji":               {"users"},
		"queue":               {},
		"ratelimit":           {},
		"markdown":            {},
		"mail":                {},
		"storage":             leaves,
		"storage/memory":      append([]string{"storage"}, leaves...),
		"storage/storagetest": append([]string{"storage"}, leaves...),
		"storage/sqlstore":    append([]string{"storage"}, leaves...),
		".":                   append([]string{"storage", "queue", "ratelimit", "markdown", "blobs"}, leaves...),
		"httpapi":             append([]string{".", "markdown"}, leaves...),
		// The PostgreSQL event bus satisfies chat.Bus structurally: it never imports chat.
		"eventbus/pgbus":    {"storage"},
		"internal/benchorg": append([]string{".", "storage"}, leaves...),
		"seeds":             append([]string{"."}, leaves...),
		// chattest is the httptest of the engine: like the examples it assembles a Service, a
		// store and the HTTP API, for test suites.
		"chattest":          append([]string{".", "httpapi", "seeds", "storage", "storage/memory"}, leaves...),
		"internal/pgtest":   {},
		"internal/smtptest": {},
		// ops satisfies httpapi.RequestObserver structurally: it never imports httpapi.
		"ops": {".", "storage"},
	}
	dirs, err := filepath.Glob("*/")
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, d := range dirs {
		pkgs = append(pkgs, strings.TrimSuffix(d, "/"))
	}
	pkgs = append(pkgs, ".", "blobs/disk", "blobs/memory", "blobs/blobstest", "blobs/s3", "storage/memory", "storage/storagetest", "eventbus/pgbus", "internal/benchorg", "internal/pgtest", "internal/smtptest", "storage/sqlstore")
	for _, rel := range pkgs {
		if strings.HasPrefix(rel, "examples") || strings.HasPrefix(rel, ".") && rel != "." {
			continue
		}
		pkg, err := build.ImportDir(rel, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				continue
			}
			t.Fatalf("%s: %v", rel, err)
		}
		ok, known := allowed[rel]
		if !known {
			t.Errorf("package %s has no entry in the import rules of this test", rel)
			continue
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			target := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			if target == "" {
				target = "."
			}
			if !contains(ok, target) {
				t.Errorf("%s imports %s, which the architecture forbids", rel, imp)
			}
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
