package images

import (
	"bufio"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"image"
	"io"
)

// pngStream decodes a non-interlaced PNG row by row.
type pngStream struct {
	h       Header
	palette [256][4]uint16 // non-premultiplied RGBA
	// trns is the transparent grey or RGB value (in the image's sample depth), when hasTRNS.
	trns    [3]uint16
	hasTRNS bool
}

// streamPNG decodes the PNG in r (whose header is h) and hands the rows of src, as
// premultiplied 16-bit RGBA, to s. It reads every row, and checks the data's checksums.
func streamPNG(ctx context.Context, r io.Reader, h Header, src image.Rectangle, s *shrinker) error {
	br := bufio.NewReaderSize(r, 32<<10)
	ps := &pngStream{h: h}
	for i := range ps.palette {
		ps.palette[i] = [4]uint16{0, 0, 0, 0xffff}
	}
	idat, err := ps.readUntilIDAT(br)
	if err != nil {
		return err
	}
	zr, err := zlib.NewReader(idat)
	if err != nil {
		return ErrBadImage
	}
	defer zr.Close()
	bpp := max(1, pngBitsPerPixel(h.pngColor, h.pngDepth)/8)
	n := 1 + int(h.pngRowBytes())
	cur, prev := make([]byte, n), make([]byte, n)
	samples := make([]uint16, 4*src.Dx())
	for y := range h.Height {
		if y%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if _, err := io.ReadFull(zr, cur); err != nil {
			return ErrBadImage
		}
		if !unfilter(cur[0], cur[1:], prev[1:], bpp) {
			return ErrBadImage
		}
		if y >= src.Min.Y && y < src.Max.Y {
			ps.convert(cur[1:], src.Min.X, src.Max.X, samples)
			s.addRow(samples)
		}
		cur, prev = prev, cur
	}
	// As image/png: no data past the last row, the zlib checksum and the CRCs right.
	if n, err := io.CopyN(io.Discard, zr, 1); n != 0 || err != io.EOF {
		return ErrBadImage
	}
	if _, err := io.Copy(io.Discard, idat); err != nil {
		return ErrBadImage
	}
	return nil
}

// readUntilIDAT reads the chunks before the first IDAT (the palette and transparency) and
// returns a reader of the image data, across consecutive IDAT chunks, checking their CRCs.
func (ps *pngStream) readUntilIDAT(br *bufio.Reader) (*idatReader, error) {
	if err := skip(br, 8); err != nil {
		return nil, ErrBadImage
	}
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return nil, ErrBadImage
		}
		n, typ := binary.BigEndian.Uint32(hdr[:4]), string(hdr[4:])
		if n > 0x7fffffff {
			return nil, ErrBadImage
		}
		switch typ {
		case "IDAT":
			crc := crc32.NewIEEE()
			crc.Write(hdr[4:])
			return &idatReader{r: br, left: n, crc: crc}, nil
		case "PLTE", "tRNS":
			if n > 3*256 {
				return nil, ErrBadImage
			}
			var buf [3 * 256]byte
			if _, err := io.ReadFull(br, buf[:n]); err != nil {
				return nil, ErrBadImage
			}
			ps.chunk(typ, buf[:n])
			n = 0
		}
		if err := skip(br, int64(n)+4); err != nil {
			return nil, ErrBadImage
		}
	}
}

// chunk takes in a PLTE or tRNS chunk.
func (ps *pngStream) chunk(typ string, b []byte) {
	if typ == "PLTE" {
		for i := 0; i+2 < len(b); i += 3 {
			ps.palette[i/3] = [4]uint16{uint16(b[i]) * 257, uint16(b[i+1]) * 257, uint16(b[i+2]) * 257, 0xffff}
		}
		return
	}
	switch ps.h.pngColor {
	case 3:
		for i, a := range b {
			ps.palette[i][3] = uint16(a) * 257
		}
	case 0:
		if len(b) >= 2 {
			ps.trns[0], ps.hasTRNS = binary.BigEndian.Uint16(b), true
		}
	case 2:
		if len(b) >= 6 {
			ps.hasTRNS = true
			for c := range 3 {
				ps.trns[c] = binary.BigEndian.Uint16(b[2*c:])
			}
		}
	}
}

// idatReader reads the data of consecutive IDAT chunks; it ends at the first other chunk.
type idatReader struct {
	r    *bufio.Reader
	left uint32
	crc  hash.Hash32
	done bool
}

func (d *idatReader) Read(p []byte) (int, error) {
	for d.left == 0 {
		if d.done {
			return 0, io.EOF
		}
		var b [12]byte
		if _, err := io.ReadFull(d.r, b[:]); err != nil {
			return 0, err
		}
		if binary.BigEndian.Uint32(b[:4]) != d.crc.Sum32() {
			return 0, ErrBadImage
		}
		n := binary.BigEndian.Uint32(b[4:8])
		if string(b[8:]) != "IDAT" || n > 0x7fffffff {
			d.done = true
			return 0, io.EOF
		}
		d.crc.Reset()
		d.crc.Write(b[8:])
		d.left = n
	}
	n, err := d.r.Read(p[:min(len(p), int(d.left))])
	d.crc.Write(p[:n])
	d.left -= uint32(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// unfilter reverses a row's filter in place; prev is the previous row (zeros for the first).
func unfilter(filter byte, cur, prev []byte, bpp int) bool {
	switch filter {
	case 0:
	case 1:
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2:
		for i := range cur {
			cur[i] += prev[i]
		}
	case 3:
		for i := range cur {
			var left byte
			if i >= bpp {
				left = cur[i-bpp]
			}
			cur[i] += byte((int(left) + int(prev[i])) / 2)
		}
	case 4:
		for i := range cur {
			var a, c byte
			if i >= bpp {
				a, c = cur[i-bpp], prev[i-bpp]
			}
			cur[i] += paeth(a, prev[i], c)
		}
	default:
		return false
	}
	return true
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// convert writes the pixels x0..x1 of a row as premultiplied 16-bit RGBA samples.
func (ps *pngStream) convert(row []byte, x0, x1 int, out []uint16) {
	depth := int(ps.h.pngDepth)
	for x := x0; x < x1; x++ {
		var px [4]uint32
		switch ps.h.pngColor {
		case 0:
			v := sample(row, x, depth)
			g := scale16(v, depth)
			px = [4]uint32{g, g, g, 0xffff}
			if ps.hasTRNS && uint16(v) == ps.trns[0] {
				px = [4]uint32{}
			}
		case 3:
			p := ps.palette[sample(row, x, depth)&0xff]
			px = [4]uint32{uint32(p[0]), uint32(p[1]), uint32(p[2]), uint32(p[3])}
		case 2:
			var raw [3]uint32
			for c := range 3 {
				raw[c] = sample(row, 3*x+c, depth)
			}
			px = [4]uint32{scale16(raw[0], depth), scale16(raw[1], depth), scale16(raw[2], depth), 0xffff}
			if ps.hasTRNS && uint16(raw[0]) == ps.trns[0] && uint16(raw[1]) == ps.trns[1] && uint16(raw[2]) == ps.trns[2] {
				px = [4]uint32{}
			}
		case 4:
			g := scale16(sample(row, 2*x, depth), depth)
			px = [4]uint32{g, g, g, scale16(sample(row, 2*x+1, depth), depth)}
		case 6:
			for c := range 4 {
				px[c] = scale16(sample(row, 4*x+c, depth), depth)
			}
		}
		o := out[4*(x-x0) : 4*(x-x0)+4 : 4*(x-x0)+4]
		a := px[3]
		o[0], o[1], o[2], o[3] = uint16(px[0]*a/0xffff), uint16(px[1]*a/0xffff), uint16(px[2]*a/0xffff), uint16(a)
	}
}

// sample is the i-th sample of a row of samples of depth bits.
func sample(row []byte, i, depth int) uint32 {
	switch depth {
	case 8:
		return uint32(row[i])
	case 16:
		return uint32(row[2*i])<<8 | uint32(row[2*i+1])
	}
	bit := i * depth
	return uint32(row[bit/8]>>(8-depth-bit%8)) & (1<<depth - 1)
}

// scale16 widens a sample of depth bits to 16 bits.
func scale16(v uint32, depth int) uint32 {
	switch depth {
	case 16:
		return v
	case 8:
		return v * 257
	}
	return v * 0xffff / (1<<depth - 1)
}
