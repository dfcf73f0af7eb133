package images

import "image"

// shrinker averages the rows of a source rectangle, handed to it one by one as premultiplied
// 16-bit RGBA samples, into a smaller image (a box filter: each output pixel is the mean of
// the source pixels that fall in it). It holds one output row of sums, whatever the source's
// size.
type shrinker struct {
	srcW, srcH int
	dst        *image.RGBA
	// colStart[dx] is the first source column of output column dx; colStart[dw] is srcW.
	colStart []int
	sums     []uint64
	rows     uint64 // source rows summed into the current output row
	dy, y    int    // the current output row, the next source row
}

// newShrinker shrinks srcW×srcH to dw×dh; dw ≤ srcW and dh ≤ srcH.
func newShrinker(srcW, srcH, dw, dh int) *shrinker {
	s := &shrinker{
		srcW: srcW, srcH: srcH, dst: image.NewRGBA(image.Rect(0, 0, dw, dh)),
		colStart: make([]int, dw+1), sums: make([]uint64, 4*dw),
	}
	for dx := range dw + 1 {
		s.colStart[dx] = int(int64(dx) * int64(srcW) / int64(dw))
	}
	return s
}

// addRow adds the next source row: 4 samples (R, G, B, A, premultiplied) per pixel.
func (s *shrinker) addRow(samples []uint16) {
	dh := s.dst.Rect.Dy()
	if ty := int(int64(s.y) * int64(dh) / int64(s.srcH)); ty != s.dy {
		s.flush()
		s.dy = ty
	}
	for dx := range len(s.colStart) - 1 {
		var r, g, b, a uint64
		for x := s.colStart[dx]; x < s.colStart[dx+1]; x++ {
			p := samples[4*x : 4*x+4 : 4*x+4]
			r, g, b, a = r+uint64(p[0]), g+uint64(p[1]), b+uint64(p[2]), a+uint64(p[3])
		}
		sum := s.sums[4*dx : 4*dx+4 : 4*dx+4]
		sum[0], sum[1], sum[2], sum[3] = sum[0]+r, sum[1]+g, sum[2]+b, sum[3]+a
	}
	s.rows++
	s.y++
}

// flush writes the current output row's means and clears the sums.
func (s *shrinker) flush() {
	if s.rows == 0 {
		return
	}
	row := s.dst.Pix[s.dy*s.dst.Stride:]
	for dx := range len(s.colStart) - 1 {
		n := uint64(s.colStart[dx+1]-s.colStart[dx]) * s.rows
		for c := range 4 {
			row[4*dx+c] = uint8(s.sums[4*dx+c] / n >> 8)
			s.sums[4*dx+c] = 0
		}
	}
	s.rows = 0
}

// image finishes the output and returns it.
func (s *shrinker) image() *image.RGBA {
	s.flush()
	return s.dst
}
