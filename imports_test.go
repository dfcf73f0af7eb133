package chat_test

import (
	"go/build"
	"io/fs"
	"os"
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
		"users":           {},
		"realms":          {"users"},
		"drafts":          {"users"},
		"linkifiers":      {},
		"channels":        {"users"},
		"messages":        {"users", "channels"},
		"topics":          {"users", "channels"},
		"uploads":         {"users", "messages"},
		"blobs":           {},
		"blobs/disk":      {"blobs"},
		"blobs/memory":    {"blobs"},
		"blobs/blobstest": {"blobs"},
		"blobs/s3":        {"blobs"},
		"emoji":           {"users"},
		"queue":           {},
		"ratelimit":       {},
		"markdown":        {},
		"mail":            {},
		// Bounded decoding and resizing of untrusted images; nothing of the project.
		"images": {},
		// The test of the graph of the root's areas; no code of its own.
		"internal/areagraph": {},
		// The incoming webhook integrations are pure: payload in, messages out.
		"integrations":        {},
		"storage":             leaves,
		"storage/memory":      append([]string{"storage"}, leaves...),
		"storage/storagetest": append([]string{"storage"}, leaves...),
		"storage/sqlstore":    append([]string{"storage"}, leaves...),
		// The kernel below the operations: transactions, gates, errors, events, commit order.
		"internal/engine": {"internal/world", "storage", "users", "channels", "realms"},
		// What a client declared at register, and the events whose form depends on it.
		"internal/clients": {"messages"},
		// The facts of one transaction and the access predicates.
		"internal/world": {"storage", "users", "realms", "channels", "messages", "linkifiers", "markdown"},
		// The area packages: each imports the engine, the world, storage, the leaves and only
		// the areas below it.
		"compose":       {"conversations", "narrows", "people", "org", "internal/clients", "internal/engine", "internal/world", "storage", "users", "drafts", "channels", "messages", "topics", "realms"},
		"people":        {"org", "bots", "transfer", "notify", "internal/clients", "internal/engine", "internal/world", "storage", "users", "realms", "channels", "messages", "markdown", "emoji", "ratelimit", "uploads"},
		"org":           {"images", "internal/clients", "internal/engine", "internal/world", "storage", "users", "realms", "channels", "messages", "linkifiers", "markdown", "integrations", "emoji", "blobs"},
		"files":         {"images", "people", "org", "internal/engine", "internal/world", "storage", "users", "realms", "channels", "messages", "uploads", "blobs", "emoji"},
		"conversations": {"narrows", "bots", "notify", "files", "people", "org", "internal/clients", "internal/jsonw", "internal/engine", "internal/world", "storage", "users", "realms", "channels", "messages", "topics", "uploads", "markdown", "linkifiers", "emoji", "drafts"},
		// Narrows and search resolved against the world, and who may read a message: below
		// the conversations area.
		"narrows": {"internal/engine", "internal/world", "storage", "users", "channels", "messages", "topics"},
		// The typing notifications go to the recipients of a message: above the conversations.
		"typing": {"conversations", "narrows", "internal/clients", "internal/engine", "internal/world", "storage", "users", "channels", "messages", "topics"},
		// The channels' email gateway sends through the conversations area, above it.
		"emailgateway": {"conversations", "files", "people", "internal/engine", "internal/world", "storage", "users", "channels", "messages", "topics"},
		"bots":         {"internal/engine", "storage", "users", "messages", "channels", "markdown"},
		"retention":    {"files", "internal/engine", "storage", "channels", "uploads"},
		"notify":       {"internal/engine", "internal/world", "storage", "users", "messages", "channels", "realms", "topics"},
		".":            append([]string{"compose", "people", "org", "files", "conversations", "narrows", "typing", "emailgateway", "bots", "transfer", "notify", "retention", "internal/clients", "internal/engine", "internal/world", "storage", "queue", "ratelimit", "markdown", "blobs", "internal/jsonw", "integrations", "images"}, leaves...),
		"httpapi":      append([]string{".", "markdown", "httpapi/internal/jsonparam", "integrations"}, leaves...),
		// The JSON parameter decoder and its explainer know nothing of the project.
		"httpapi/internal/jsonparam": {},
		// The PostgreSQL event bus satisfies chat.Bus structurally: it never imports chat.
		"eventbus/pgbus": {"storage"},
		// Backups, Zulip's export format, imports: the store through storage, bytes through blobs.
		"transfer":          append([]string{"internal/engine", "storage", "blobs", "markdown", "transfer/zulipdir"}, leaves...),
		"internal/benchorg": append([]string{".", "storage"}, leaves...),
		"seeds":             append([]string{"."}, leaves...),
		// chattest is the httptest of the engine: like the examples it assembles a Service, a
		// store and the HTTP API, for test suites.
		"chattest":        append([]string{".", "httpapi", "ratelimit", "seeds", "storage", "storage/memory"}, leaves...),
		"internal/pgtest": {},
		// The converters of other servers' exports into Zulip's export format.
		"transfer/zulipdir":         {},
		"transfer/slackimport":      {"emoji", "transfer/zulipdir"},
		"transfer/mattermostimport": {"emoji", "transfer/zulipdir"},
		"internal/smtptest":         {},
		// Tools and test support of single packages.
		"emoji/internal/gen": {},
		"internal/latency":   {},
		"internal/cputime":   {},
		"internal/imagetest": {},
		// The JSON appender of the hand-written record encoders knows nothing of the project.
		"internal/jsonw":    {},
		"internal/s3server": {"blobs", "blobs/s3"},
		// ops satisfies httpapi.RequestObserver structurally: it never imports httpapi.
		"ops": {".", "storage"},
		// The web client knows the server only through HTTP, like any client.
		"webclient": {},
	}
	pkgs, err := projectPackages()
	if err != nil {
		t.Fatal(err)
	}
	if !contains(pkgs, ".") || !contains(pkgs, "storage/sqlstore") {
		t.Fatalf("package discovery found %v", pkgs)
	}
	for _, rel := range pkgs {
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

// projectPackages lists the directories of the module holding Go files (relative, "." for the
// root), leaving out examples (which may import anything), testdata, hidden directories and
// other modules' trees (compat, node_modules).
func projectPackages() ([]string, error) {
	var pkgs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" ||
			name == "node_modules" || path == "examples" || path == "compat") {
			return filepath.SkipDir
		}
		if path != "." {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		gofiles, err := filepath.Glob(filepath.Join(path, "*.go"))
		if err != nil {
			return err
		}
		if len(gofiles) > 0 {
			pkgs = append(pkgs, filepath.ToSlash(path))
		}
		return nil
	})
	return pkgs, err
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
