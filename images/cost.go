package images

// pngBitsPerPixel is the bits per pixel of a PNG colour type and bit depth, 0 for a
// combination the format does not allow.
func pngBitsPerPixel(colorType, depth byte) int {
	switch colorType {
	case 0: // grey
		switch depth {
		case 1, 2, 4, 8, 16:
			return int(depth)
		}
	case 3: // paletted
		switch depth {
		case 1, 2, 4, 8:
			return int(depth)
		}
	case 2, 4, 6: // RGB, grey and alpha, RGBA
		if depth == 8 || depth == 16 {
			return int(depth) * map[byte]int{2: 3, 4: 2, 6: 4}[colorType]
		}
	}
	return 0
}

// pngRowBytes is the bytes of one row of the PNG's pixels, without its filter byte.
func (h Header) pngRowBytes() int64 {
	return (int64(h.Width)*int64(pngBitsPerPixel(h.pngColor, h.pngDepth)) + 7) / 8
}

// DecodeBytes estimates, from above, the memory that decoding the image's first frame with
// the Go decoders takes: the decoded pixels and the decoder's working buffers.
func (h Header) DecodeBytes() int64 {
	px := h.Pixels()
	if px > 1<<40 || h.MaxFrameArea > 1<<40 {
		return 1 << 62 // beyond every limit; the estimates below would overflow int64
	}
	switch h.Format {
	case PNG:
		// A grey or RGB image with a transparent colour decodes to NRGBA (or NRGBA64).
		bpp := int64(4)
		if h.pngDepth == 16 {
			bpp = 8
		} else if h.pngColor == 3 {
			bpp = 1
		}
		n := px*bpp + 2*h.pngRowBytes()
		if h.pngInterlaced {
			n += px * bpp // each pass is decoded to an image of its own first
		}
		return n
	case JPEG:
		return h.jpegBytes()
	case GIF:
		return h.MaxFrameArea + px + frameOverhead
	case WebP:
		// VP8: YCbCr 4:2:0 and an alpha plane; VP8L: ARGB words and the NRGBA result.
		if h.webpKind == "VP8 " {
			return h.MaxFrameArea*5/2 + 64*int64(h.Width)
		}
		return h.MaxFrameArea * 16
	}
	return px * 8
}

// frameOverhead is the memory of one decoded GIF frame besides its pixels: the image value
// and a palette of its own (the decoder copies the palette of a frame with a transparent
// index).
const frameOverhead = 256*16 + 256

// AllFramesBytes estimates the memory that decoding every frame takes (gif.DecodeAll), and
// the canvas and its copy that composing them needs.
func (h Header) AllFramesBytes() int64 {
	if h.Format != GIF {
		return h.DecodeBytes()
	}
	return h.FramePixels + int64(h.Frames)*frameOverhead + 8*h.Pixels()
}

// jpegBytes is the memory of image/jpeg's decode: each component's blocks of 64 bytes, and
// for a progressive image their coefficients (64 int32 per block) kept until the end; a
// four-component image is converted to CMYK besides.
func (h Header) jpegBytes() int64 {
	hmax, vmax := 1, 1
	for _, c := range h.jpegComps {
		hmax, vmax = max(hmax, c.h), max(vmax, c.v)
	}
	mxx := (int64(h.Width) + 8*int64(hmax) - 1) / (8 * int64(hmax))
	myy := (int64(h.Height) + 8*int64(vmax) - 1) / (8 * int64(vmax))
	var blocks int64
	for _, c := range h.jpegComps {
		blocks += mxx * myy * int64(c.h*c.v)
	}
	n := blocks * 64
	if h.jpegProgressive {
		n += blocks * 64 * 4
	}
	if len(h.jpegComps) == 4 {
		n += h.Pixels() * 4
	}
	return n
}

// Streamable reports whether the image can be shrunk while it is decoded, row by row: a
// non-interlaced PNG.
func (h Header) Streamable() bool { return h.Format == PNG && !h.pngInterlaced }

// StreamBytes is the memory of a streamed decode: two rows, a row of 16-bit samples, and a
// row of sums for the output.
func (h Header) StreamBytes(outWidth int) int64 {
	return 2*h.pngRowBytes() + 8*int64(h.Width) + 32*int64(outWidth) + 64<<10
}
