// Package imagetest holds what the tests of hostile images share: PNG files written row by
// row (far larger decoded than a test could hold) and a sampler of the heap's growth while
// a function runs. Only tests import it.
package imagetest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// StreamedPNG writes a w×h PNG (filter none) of the given bit depth and colour type, whose
// pixels take bitsPerPixel bits, filling each row with row.
func StreamedPNG(t testing.TB, w, h int, depth, colorType byte, bitsPerPixel int, row func(y int, b []byte)) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colorType
	WriteChunk(&out, "IHDR", ihdr[:])
	var data bytes.Buffer
	zw, err := zlib.NewWriterLevel(&data, zlib.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1+(w*bitsPerPixel+7)/8)
	for y := range h {
		row(y, buf[1:])
		if _, err := zw.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	WriteChunk(&out, "IDAT", data.Bytes())
	WriteChunk(&out, "IEND", nil)
	return out.Bytes()
}

// WriteChunk appends one PNG chunk (length, type, data, CRC) to w.
func WriteChunk(w *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.WriteString(typ)
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// HeapPeak samples the bytes of live and unswept heap objects every millisecond while fn
// runs, and returns the largest growth over the level before it.
func HeapPeak(t testing.TB, fn func()) uint64 {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > base {
				peak = max(peak, v-base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	fn()
	close(done)
	wg.Wait()
	return peak
}
