package s3_test

import (
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/blobstest"
	"github.com/teamchat/chat/blobs/s3"
	"github.com/teamchat/chat/internal/s3server"
)

// TestConformance runs the blob-store suite against a real S3-compatible server (versitygw),
// one server per test and a fresh bucket per subtest.
func TestConformance(t *testing.T) {
	cfg := s3server.Start(t)
	n := 0
	blobstest.Run(t, func(t *testing.T) blobs.Store {
		n++
		c := cfg
		c.Bucket = cfg.Bucket + "-" + strings.Repeat("x", n%2) + string(rune('a'+n%26)) + string(rune('a'+n/26))
		s, err := s3.Open(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// A prefix keeps a store's objects apart from others in the bucket.
func TestPrefix(t *testing.T) {
	cfg := s3server.Start(t)
	ctx := t.Context()
	a := cfg
	a.Prefix = "org-a/"
	sa, err := s3.Open(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := s3.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	blobstest.MustPut(t, sa, "k/one", []byte("1"))
	blobstest.MustPut(t, sb, "k/two", []byte("2"))
	var keys []string
	if err := sa.List(ctx, "", func(i blobs.Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "k/one" {
		t.Fatalf("prefixed store lists %v", keys)
	}
	if got := string(blobstest.MustRead(t, sb, "org-a/k/one")); got != "1" {
		t.Fatalf("object under the prefix: %q", got)
	}
	if n, err := sa.SweepPartial(ctx, time.Now()); err != nil || n != 0 {
		t.Fatalf("SweepPartial with nothing interrupted: %d, %v", n, err)
	}
}

func TestParseURL(t *testing.T) {
	t.Parallel()
	cfg, err := s3.ParseURL("s3://AK:SK@127.0.0.1:9000/bucket/some/prefix?secure=false&region=eu-1&create=true")
	if err != nil {
		t.Fatal(err)
	}
	want := s3.Config{Endpoint: "127.0.0.1:9000", AccessKeyID: "AK", SecretAccessKey: "SK", Region: "eu-1", Bucket: "bucket", Prefix: "some/prefix/", CreateBucket: true}
	if cfg != want {
		t.Fatalf("ParseURL = %+v, want %+v", cfg, want)
	}
	for _, bad := range []string{"http://x/b", "s3:///b", "s3://host/"} {
		if _, err := s3.ParseURL(bad); err == nil {
			t.Errorf("ParseURL(%q) accepted", bad)
		}
	}
	if _, err := s3.ParseURL("s3://AK:topsecret@h/b x%zz"); err != nil && strings.Contains(err.Error(), "topsecret") {
		t.Errorf("error shows the secret: %v", err)
	}
}
