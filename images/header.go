package images

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Formats of the images this package reads.
const (
	PNG  = "png"
	JPEG = "jpeg"
	GIF  = "gif"
	WebP = "webp"
)

// Limits of Zulip's (zerver/lib/thumbnail.py).
const (
	// MaxPixels bounds an image's pixels (IMAGE_BOMB_TOTAL_PIXELS); for an emoji, the pixels
	// of all its frames together.
	MaxPixels = 90_000_000
	// MaxAnimatedPixels bounds the pixels of the first three frames of an animated image
	// that gets a thumbnail (IMAGE_MAX_ANIMATED_PIXELS).
	MaxAnimatedPixels = MaxPixels / 3
	// EmojiSize is the side of a custom emoji's image (DEFAULT_EMOJI_SIZE).
	EmojiSize = 64
	// MaxEmojiBytes bounds an emoji's image after resizing, and its still image
	// (MAX_EMOJI_GIF_FILE_SIZE_BYTES).
	MaxEmojiBytes = 128 << 10
	// AvatarSize and MediumAvatarSize are the sides of avatar images (DEFAULT_AVATAR_SIZE,
	// MEDIUM_AVATAR_SIZE).
	AvatarSize       = 100
	MediumAvatarSize = 500
)

// Errors of the package: callers turn them into the API's refusals.
var (
	// ErrBadImage: the bytes are not an image of a supported format, or are corrupt.
	ErrBadImage = errors.New("images: could not decode image")
	// ErrTooLarge: the image has too many pixels, or its decode would need more memory than
	// the Processor's budget.
	ErrTooLarge = errors.New("images: image size exceeds limit")
	// ErrEncodedTooLarge: a resized emoji is still larger than MaxEmojiBytes.
	ErrEncodedTooLarge = errors.New("images: resized image exceeds limit")
)

// Header is what an image's header says, read without decoding a pixel.
type Header struct {
	Format        string
	Width, Height int
	// Frames is the number of frames: 1 for a still image.
	Frames int
	// FramePixels is the pixels of all frames together (a GIF's frames may be smaller than
	// its canvas).
	FramePixels int64
	// MaxFrameArea is the largest frame's pixel count (for WebP, the coded frame's).
	MaxFrameArea int64

	pngDepth, pngColor byte
	pngInterlaced      bool
	jpegProgressive    bool
	jpegComps          []jpegComp
	webpKind           string // "VP8 ", "VP8L" or "VP8X"
}

type jpegComp struct{ h, v int }

// Pixels is the canvas's pixel count.
func (h Header) Pixels() int64 { return int64(h.Width) * int64(h.Height) }

// Animated reports whether the image has more than one frame.
func (h Header) Animated() bool { return h.Frames > 1 }

// ReadHeader reads an image's header from r: its format, dimensions and frames. It reads
// only headers and skips what lies between them (a GIF is walked to its end, skipping the
// compressed data of its frames), in constant memory. Bytes that are not a PNG, JPEG, GIF or
// WebP image give ErrBadImage.
func ReadHeader(r io.Reader) (Header, error) {
	br := bufio.NewReaderSize(r, 4096)
	magic, _ := br.Peek(12)
	var (
		h   Header
		err error
	)
	switch {
	case bytes.HasPrefix(magic, []byte("\x89PNG\r\n\x1a\n")):
		h, err = readPNGHeader(br)
	case bytes.HasPrefix(magic, []byte("\xff\xd8")):
		h, err = readJPEGHeader(br)
	case bytes.HasPrefix(magic, []byte("GIF87a")), bytes.HasPrefix(magic, []byte("GIF89a")):
		h, err = readGIFHeader(br)
	case len(magic) == 12 && string(magic[:4]) == "RIFF" && string(magic[8:]) == "WEBP":
		h, err = readWebPHeader(br)
	default:
		return Header{}, ErrBadImage
	}
	if err != nil {
		if errors.Is(err, ErrBadImage) {
			return Header{}, err
		}
		return Header{}, fmt.Errorf("%w: %v", ErrBadImage, err)
	}
	if h.Width <= 0 || h.Height <= 0 || h.Frames <= 0 {
		return Header{}, ErrBadImage
	}
	if h.FramePixels == 0 {
		h.FramePixels = h.Pixels() * int64(h.Frames)
	}
	if h.MaxFrameArea == 0 {
		h.MaxFrameArea = h.Pixels()
	}
	return h, nil
}

// skip discards n bytes.
func skip(r *bufio.Reader, n int64) error {
	if n <= 0 {
		return nil
	}
	got, err := r.Discard(int(min(n, 1<<30)))
	if err == nil && int64(got) < n {
		return skip(r, n-int64(got))
	}
	return err
}

// readPNGHeader reads IHDR and the chunks before the first IDAT (acTL gives an APNG's
// frames).
func readPNGHeader(r *bufio.Reader) (Header, error) {
	if err := skip(r, 8); err != nil {
		return Header{}, err
	}
	h := Header{Format: PNG, Frames: 1}
	var hdr [8]byte
	for first := true; ; first = false {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return Header{}, err
		}
		n, typ := binary.BigEndian.Uint32(hdr[:4]), string(hdr[4:])
		if n > 0x7fffffff || first != (typ == "IHDR") {
			return Header{}, ErrBadImage
		}
		switch typ {
		case "IDAT":
			return h, nil
		case "IHDR":
			if err := readIHDR(r, n, &h); err != nil {
				return Header{}, err
			}
			n = 0 // read; its CRC follows
		case "acTL":
			var b [8]byte
			if n != 8 {
				return Header{}, ErrBadImage
			}
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return Header{}, err
			}
			if f := binary.BigEndian.Uint32(b[:4]); f > 0 && f < 1<<20 {
				h.Frames = int(f)
			}
			n = 0
		case "IEND":
			return Header{}, ErrBadImage
		}
		if err := skip(r, int64(n)+4); err != nil {
			return Header{}, err
		}
	}
}

// readIHDR reads the 13 bytes of IHDR; n is the chunk's declared length.
func readIHDR(r *bufio.Reader, n uint32, h *Header) error {
	var b [13]byte
	if n != 13 {
		return ErrBadImage
	}
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return err
	}
	w, ht := binary.BigEndian.Uint32(b[0:4]), binary.BigEndian.Uint32(b[4:8])
	if w == 0 || ht == 0 || w > 0x7fffffff || ht > 0x7fffffff || b[10] != 0 || b[11] != 0 || b[12] > 1 {
		return ErrBadImage
	}
	h.Width, h.Height = int(w), int(ht)
	h.pngDepth, h.pngColor, h.pngInterlaced = b[8], b[9], b[12] == 1
	if pngBitsPerPixel(h.pngColor, h.pngDepth) == 0 {
		return ErrBadImage
	}
	return nil
}
