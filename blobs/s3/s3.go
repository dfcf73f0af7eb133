// Package s3 is a blobs.Store on an S3-compatible object store (Amazon S3, MinIO, Ceph,
// versitygw, ...), through the minio-go client, so that several server processes share the
// uploaded bytes. Objects live in one bucket, under an optional key prefix.
//
// A Put streams through a multipart upload with parts of PartSize bytes (one part in memory
// at a time), completed only when the reader ends: an object appears whole or not at all. An
// interrupted upload is aborted; one a killed process left is removed by SweepPartial.
//
// It imports blobs, minio-go and the standard library.
package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/teamchat/chat/blobs"
)

// DefaultPartSize is the size of the parts of a streamed upload (S3's minimum is 5 MiB).
const DefaultPartSize = 8 << 20

// Config locates the bucket.
type Config struct {
	// Endpoint is host[:port] of the S3 API.
	Endpoint string
	// Secure uses HTTPS.
	Secure          bool
	AccessKeyID     string
	SecretAccessKey string
	// Region defaults to us-east-1.
	Region string
	Bucket string
	// Prefix is prepended to every key ("" or ending in "/").
	Prefix string
	// PartSize overrides DefaultPartSize.
	PartSize uint64
	// CreateBucket makes the bucket when it does not exist.
	CreateBucket bool
}

// ParseURL reads a Config from a URL of the form
// s3://ACCESS:SECRET@HOST:PORT/BUCKET[/PREFIX]?secure=false&region=R&create=true.
func ParseURL(raw string) (Config, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return Config{}, fmt.Errorf("s3: bad URL %s (want s3://ACCESS:SECRET@HOST:PORT/BUCKET[/PREFIX])", redact(raw))
	}
	path := strings.Trim(u.Path, "/")
	bucket, prefix, _ := strings.Cut(path, "/")
	if bucket == "" {
		return Config{}, errors.New("s3: the URL names no bucket")
	}
	if prefix != "" {
		prefix += "/"
	}
	secret, _ := u.User.Password()
	q := u.Query()
	return Config{
		Endpoint: u.Host, Secure: q.Get("secure") != "false", AccessKeyID: u.User.Username(), SecretAccessKey: secret,
		Region: q.Get("region"), Bucket: bucket, Prefix: prefix, CreateBucket: q.Get("create") == "true",
	}, nil
}

// redact hides the credentials of a URL in messages.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		if u.User != nil {
			u.User = url.User("REDACTED")
		}
		return u.String()
	}
	return "(unparsable)"
}

// Store is a blobs.Store in a bucket, safe for concurrent use.
type Store struct {
	c        *minio.Client
	bucket   string
	prefix   string
	partSize uint64
}

// Compile-time conformance.
var (
	_ blobs.Store          = (*Store)(nil)
	_ blobs.PartialSweeper = (*Store)(nil)
)

// Open connects to the bucket of cfg (creating it when cfg.CreateBucket says so) and checks
// that it exists.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	region := cfg.Region
	if region == "" {
		region = "us-east-1"
	}
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds: credentials.NewStaticV4(cfg.AccessKeyID, cfg.SecretAccessKey, ""), Secure: cfg.Secure, Region: region,
	})
	if err != nil {
		return nil, fmt.Errorf("s3: %w", err)
	}
	s := &Store{c: c, bucket: cfg.Bucket, prefix: cfg.Prefix, partSize: cfg.PartSize}
	if s.partSize == 0 {
		s.partSize = DefaultPartSize
	}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("s3: checking bucket %s: %w", cfg.Bucket, err)
	}
	if !ok {
		if !cfg.CreateBucket {
			return nil, fmt.Errorf("s3: bucket %s does not exist", cfg.Bucket)
		}
		if err := c.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{Region: region}); err != nil {
			return nil, fmt.Errorf("s3: creating bucket %s: %w", cfg.Bucket, err)
		}
	}
	return s, nil
}

// Put streams r to the object through a multipart upload, completed when r ends.
func (s *Store) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	if err := blobs.CheckKey(key); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	counted := &countingReader{ctx: ctx, r: r}
	_, err := s.c.PutObject(ctx, s.bucket, s.prefix+key, counted, -1, minio.PutObjectOptions{
		PartSize: s.partSize, ContentType: "application/octet-stream",
	})
	if err != nil {
		if counted.err != nil {
			return 0, counted.err // the reader's own failure, not the client's wrapping of it
		}
		if cerr := ctx.Err(); cerr != nil {
			return 0, cerr
		}
		return 0, fmt.Errorf("s3: put %s: %w", key, err)
	}
	return counted.n, nil
}

// countingReader counts the bytes read, fails once ctx is done and remembers the reader's
// error.
type countingReader struct {
	ctx context.Context
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		c.err = err
		return 0, err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// isNotFound reports whether err is S3's answer for a missing key.
func isNotFound(err error) bool {
	resp := minio.ToErrorResponse(err)
	return resp.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound
}

// Open returns a seekable reader of the object.
func (s *Store) Open(ctx context.Context, key string) (blobs.Object, error) {
	if err := blobs.CheckKey(key); err != nil {
		return nil, err
	}
	o, err := s.c.GetObject(ctx, s.bucket, s.prefix+key, minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("s3: get %s: %w", key, err)
	}
	st, err := o.Stat()
	if err != nil {
		o.Close()
		if isNotFound(err) {
			return nil, fmt.Errorf("s3: %s: %w", key, blobs.ErrNotFound)
		}
		return nil, fmt.Errorf("s3: stat %s: %w", key, err)
	}
	return &object{Object: o, info: blobs.Info{Key: key, Size: st.Size, ModTime: st.LastModified}}, nil
}

type object struct {
	*minio.Object
	info blobs.Info
}

func (o *object) Info() blobs.Info { return o.info }

// Delete removes the object.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blobs.CheckKey(key); err != nil {
		return err
	}
	err := s.c.RemoveObject(ctx, s.bucket, s.prefix+key, minio.RemoveObjectOptions{})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("s3: delete %s: %w", key, err)
	}
	return nil
}

// List visits the objects under prefix; S3 lists keys in ascending order.
func (s *Store) List(ctx context.Context, prefix string, fn func(blobs.Info) error) error {
	if err := blobs.CheckPrefix(prefix); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing goroutine when fn ends the walk early
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + prefix, Recursive: true}) {
		if o.Err != nil {
			return fmt.Errorf("s3: list %s: %w", prefix, o.Err)
		}
		if err := fn(blobs.Info{Key: strings.TrimPrefix(o.Key, s.prefix), Size: o.Size, ModTime: o.LastModified}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// SweepPartial aborts the multipart uploads begun before the given time (those of killed
// processes), so that their parts stop taking space.
func (s *Store) SweepPartial(ctx context.Context, before time.Time) (int, error) {
	n := 0
	for u := range s.c.ListIncompleteUploads(ctx, s.bucket, s.prefix, true) {
		if u.Err != nil {
			return n, fmt.Errorf("s3: listing incomplete uploads: %w", u.Err)
		}
		if !u.Initiated.Before(before) {
			continue
		}
		if err := s.c.RemoveIncompleteUpload(ctx, s.bucket, u.Key); err != nil {
			return n, fmt.Errorf("s3: aborting upload of %s: %w", u.Key, err)
		}
		n++
	}
	return n, nil
}
