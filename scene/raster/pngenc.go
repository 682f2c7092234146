package raster

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/turnmail/turnmail/scene/raster/internal/deflate"
)

// writePNG returns the PNG of cv's size and palette with the image data idat (a zlib
// stream of cv's rows): an 8-bit paletted image, its rows unfiltered (as image/png
// writes a paletted image).
func writePNG(cv *canvas, idat []byte) []byte {
	colours := cv.pal.colours()
	out := make([]byte, 0, len(idat)+3*len(colours)+64)
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(cv.w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(cv.h))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits a pixel, colour type 3: a palette
	out = chunk(out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(colours))
	for _, c := range colours {
		plte = append(plte, c.R, c.G, c.B)
	}
	out = chunk(out, "PLTE", plte)
	out = chunk(out, "IDAT", idat)
	return chunk(out, "IEND", nil)
}

// chunk appends a PNG chunk: its length, type, data and the CRC of type and data.
func chunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	at := len(out)
	out = append(append(out, typ...), data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[at:]))
}

// zlibHead starts a zlib stream: deflate with a 32 KB window, no dictionary.
var zlibHead = []byte{0x78, 0x01}

// encodeWhole returns cv as a PNG whose image data is parsed whole, in the bands a
// Cache uses, with hash chains of chain candidates (0: the parser's default).
func encodeWhole(cv *canvas, chain int) []byte {
	cv.rows(0, cv.h)
	p := &deflate.Parser{Chain: chain}
	idat := append(make([]byte, 0, 128<<10), zlibHead...)
	var toks []deflate.Token
	for y0 := 0; y0 < cv.h; y0 += bandRows {
		y1 := min(cv.h, y0+bandRows)
		toks = p.Parse(toks[:0], cv.pix, max(0, y0-dictRows)*cv.stride, y0*cv.stride, y1*cv.stride, cv.stride)
		idat = deflate.Block(idat, toks)
	}
	idat = append(idat, deflate.End...)
	idat = binary.BigEndian.AppendUint32(idat, deflate.Adler(cv.pix))
	return writePNG(cv, idat)
}
