package httpapi_test

import (
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs/disk"
)

// uploadBenchSize is the file of the streaming benchmarks: 200 MB.
const uploadBenchSize = 200 << 20

// pattern yields n bytes without holding them.
type pattern struct{ left int64 }

func (p *pattern) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(b)), p.left)
	for i := range b[:n] {
		b[i] = byte(i)
	}
	p.left -= n
	return int(n), nil
}

// heapPeak samples the heap in use until stop is called and returns the largest growth
// over the heap in use at the start (after a collection), in bytes.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > base && m.HeapInuse-base > peak.Load() {
				peak.Store(m.HeapInuse - base)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

// BenchmarkUpload200MB streams a 200 MB file through POST /user_uploads (multipart, over a
// real HTTP connection) into the disk blob store, and reports the heap's peak growth during
// the upload (heap-MB; the goal is < 20) beside the throughput (MB/s). Compare with
// BenchmarkFileCopy200MB, the same bytes copied into a file of the same directory.
func BenchmarkUpload200MB(b *testing.B) {
	dir := b.TempDir()
	bs, err := disk.Open(filepath.Join(dir, "blobs"))
	if err != nil {
		b.Fatal(err)
	}
	s := newServer(b, func(o *chat.Options) { o.Blobs = bs; o.MaxFileUploadSizeMiB = 250 })
	b.SetBytes(uploadBenchSize)
	var worst uint64
	for b.Loop() {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			fw, _ := mw.CreateFormFile("file", "big.bin")
			io.Copy(fw, &pattern{left: uploadBenchSize})
			mw.Close()
			pw.Close()
		}()
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v1/user_uploads", pr)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.SetBasicAuth("hamlet@zulip.com", s.keys["hamlet@zulip.com"])
		stop := heapPeak()
		resp, err := http.DefaultClient.Do(req)
		peak := stop()
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("upload: %d", resp.StatusCode)
		}
		worst = max(worst, peak)
	}
	b.ReportMetric(float64(worst)/(1<<20), "heap-MB")
}

// BenchmarkFileCopy200MB is the baseline: the same 200 MB written to a file in the same
// directory and synced, as the disk blob store does.
func BenchmarkFileCopy200MB(b *testing.B) {
	dir := b.TempDir()
	b.SetBytes(uploadBenchSize)
	for b.Loop() {
		f, err := os.CreateTemp(dir, "copy-*")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(f, &pattern{left: uploadBenchSize}); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		os.Remove(f.Name())
	}
}
