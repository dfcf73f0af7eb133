package images

import (
	"bufio"
	"encoding/binary"
	"io"
)

// readJPEGHeader walks the segments of a JPEG up to its frame header (SOF0, SOF1 or SOF2,
// the ones image/jpeg decodes).
func readJPEGHeader(r *bufio.Reader) (Header, error) {
	if err := skip(r, 2); err != nil {
		return Header{}, err
	}
	for {
		b, err := r.ReadByte()
		if err != nil {
			return Header{}, err
		}
		if b != 0xff {
			return Header{}, ErrBadImage
		}
		m := byte(0xff)
		for m == 0xff { // fill bytes
			if m, err = r.ReadByte(); err != nil {
				return Header{}, err
			}
		}
		switch {
		case m == 0x00 || m == 0x01 || (m >= 0xd0 && m <= 0xd7):
			continue // no length
		case m == 0xd9 || m == 0xda: // EOI, SOS before a frame header
			return Header{}, ErrBadImage
		}
		var lb [2]byte
		if _, err := io.ReadFull(r, lb[:]); err != nil {
			return Header{}, err
		}
		n := int(binary.BigEndian.Uint16(lb[:]))
		if n < 2 {
			return Header{}, ErrBadImage
		}
		switch m {
		case 0xc0, 0xc1, 0xc2:
			return readSOF(r, n-2, m == 0xc2)
		case 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf:
			return Header{}, ErrBadImage // lossless, hierarchical, arithmetic: not decoded
		}
		if err := skip(r, int64(n-2)); err != nil {
			return Header{}, err
		}
	}
}

// readSOF reads a frame header of n bytes.
func readSOF(r *bufio.Reader, n int, progressive bool) (Header, error) {
	if n < 6 || n > 6+3*4 {
		return Header{}, ErrBadImage
	}
	var b [6 + 3*4]byte
	if _, err := io.ReadFull(r, b[:n]); err != nil {
		return Header{}, err
	}
	nc := int(b[5])
	if b[0] != 8 || (nc != 1 && nc != 3 && nc != 4) || n != 6+3*nc {
		return Header{}, ErrBadImage
	}
	h := Header{
		Format: JPEG, Frames: 1, jpegProgressive: progressive,
		Height: int(binary.BigEndian.Uint16(b[1:3])), Width: int(binary.BigEndian.Uint16(b[3:5])),
	}
	for i := range nc {
		hv := b[6+3*i+1]
		c := jpegComp{h: int(hv >> 4), v: int(hv & 0x0f)}
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 {
			return Header{}, ErrBadImage
		}
		if nc == 1 {
			c = jpegComp{h: 1, v: 1} // image/jpeg ignores a lone component's factors
		}
		h.jpegComps = append(h.jpegComps, c)
	}
	return h, nil
}

// readGIFHeader reads the logical screen and walks every block to the trailer, counting the
// frames and their pixels without decompressing them.
func readGIFHeader(r *bufio.Reader) (Header, error) {
	var b [13]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return Header{}, err
	}
	h := Header{Format: GIF, Width: int(binary.LittleEndian.Uint16(b[6:8])), Height: int(binary.LittleEndian.Uint16(b[8:10]))}
	if b[10]&0x80 != 0 {
		if err := skip(r, 3<<(1+b[10]&7)); err != nil {
			return Header{}, err
		}
	}
	for {
		block, err := r.ReadByte()
		if err != nil {
			if h.Frames > 0 && err == io.EOF {
				return h, nil // a missing trailer: the decoder decides
			}
			return Header{}, err
		}
		switch block {
		case 0x21: // extension: label, sub-blocks
			if err := skip(r, 1); err != nil {
				return Header{}, err
			}
		case 0x2c: // image descriptor
			var d [9]byte
			if _, err := io.ReadFull(r, d[:]); err != nil {
				return Header{}, err
			}
			area := int64(binary.LittleEndian.Uint16(d[4:6])) * int64(binary.LittleEndian.Uint16(d[6:8]))
			h.Frames++
			h.FramePixels += area
			h.MaxFrameArea = max(h.MaxFrameArea, area)
			if d[8]&0x80 != 0 {
				if err := skip(r, 3<<(1+d[8]&7)); err != nil {
					return Header{}, err
				}
			}
			if err := skip(r, 1); err != nil { // LZW minimum code size
				return Header{}, err
			}
		case 0x3b:
			if h.Frames == 0 {
				return Header{}, ErrBadImage
			}
			return h, nil
		default:
			return Header{}, ErrBadImage
		}
		if err := skipSubBlocks(r); err != nil {
			return Header{}, err
		}
	}
}

// skipSubBlocks skips GIF data sub-blocks up to their terminator.
func skipSubBlocks(r *bufio.Reader) error {
	for {
		n, err := r.ReadByte()
		if err != nil || n == 0 {
			return err
		}
		if err := skip(r, int64(n)); err != nil {
			return err
		}
	}
}

// readWebPHeader reads the chunks of a WebP file up to its first coded frame: VP8X's canvas
// and flags, ANMF frames, and the dimensions of the VP8 or VP8L bitstream.
func readWebPHeader(r *bufio.Reader) (Header, error) {
	if err := skip(r, 12); err != nil {
		return Header{}, err
	}
	h := Header{Format: WebP, Frames: 1}
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if err == io.EOF && h.webpKind == "VP8X" && h.Frames > 0 {
				return h, nil // an animation: its frames are inside ANMF chunks
			}
			return Header{}, err
		}
		typ, n := string(hdr[:4]), int64(binary.LittleEndian.Uint32(hdr[4:]))
		read := int64(0)
		switch typ {
		case "VP8X":
			var b [10]byte
			if n < 10 {
				return Header{}, ErrBadImage
			}
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return Header{}, err
			}
			read = 10
			h.webpKind = typ
			h.Width = 1 + (int(b[4]) | int(b[5])<<8 | int(b[6])<<16)
			h.Height = 1 + (int(b[7]) | int(b[8])<<8 | int(b[9])<<16)
			if b[0]&0x02 != 0 {
				h.Frames = 0 // counted from ANMF
			}
		case "ANMF":
			h.Frames++
		case "VP8 ", "VP8L":
			return readWebPFrame(r, typ, h)
		}
		if err := skip(r, n-read+n&1); err != nil {
			return Header{}, err
		}
	}
}

// readWebPFrame reads the dimensions of a VP8 or VP8L bitstream.
func readWebPFrame(r *bufio.Reader, typ string, h Header) (Header, error) {
	var b [10]byte
	var w, ht int
	if typ == "VP8 " {
		if _, err := io.ReadFull(r, b[:10]); err != nil {
			return Header{}, err
		}
		// A still image is one key frame (bit 0 clear); an inter frame has no dimensions.
		if b[0]&1 != 0 || b[3] != 0x9d || b[4] != 0x01 || b[5] != 0x2a {
			return Header{}, ErrBadImage
		}
		w, ht = int(binary.LittleEndian.Uint16(b[6:8])&0x3fff), int(binary.LittleEndian.Uint16(b[8:10])&0x3fff)
	} else {
		if _, err := io.ReadFull(r, b[:5]); err != nil {
			return Header{}, err
		}
		if b[0] != 0x2f {
			return Header{}, ErrBadImage
		}
		bits := binary.LittleEndian.Uint32(b[1:5])
		w, ht = 1+int(bits&0x3fff), 1+int(bits>>14&0x3fff)
	}
	if h.webpKind == "" {
		h.webpKind, h.Width, h.Height = typ, w, ht
	}
	h.MaxFrameArea = max(int64(w)*int64(ht), h.Pixels())
	if h.Frames == 0 {
		h.Frames = 1
	}
	return h, nil
}
