package deflate

import (
	"bytes"
	"compress/flate"
	"hash/adler32"
	"io"
	"math/rand/v2"
	"testing"
)

// image returns rows of an image-like content (stride bytes a row, a zero first):
// flat areas, lines shifted along the rows, a few random pixels.
func image(rng *rand.Rand, w, h int) []byte {
	s := w + 1
	buf := make([]byte, s*h)
	for y := range h {
		row := buf[y*s+1 : (y+1)*s]
		for x := range row {
			c := byte(x / 37 % 4)
			if (x+y)%14 < 2 {
				c = 9
			}
			if x > w/2 && (x-y)%11 == 0 {
				c = 5
			}
			if rng.IntN(50) == 0 {
				c = byte(rng.IntN(256))
			}
			row[x] = c
		}
	}
	return buf
}

// inflate decodes bands joined and ended by End.
func inflate(t *testing.T, stream []byte) []byte {
	t.Helper()
	r := flate.NewReader(bytes.NewReader(append(append([]byte(nil), stream...), End...)))
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("inflate: %v", err)
	}
	return out
}

// bands parses buf in bands of rows rows, each reaching back dict rows, and returns
// the joined stream and each band's tokens.
func bands(buf []byte, stride, rows, dict int, p *Parser) ([]byte, [][]Token) {
	var stream []byte
	var toks [][]Token
	for start := 0; start < len(buf); start += rows * stride {
		end := min(len(buf), start+rows*stride)
		tk := p.Parse(nil, buf, max(0, start-dict*stride), start, end, stride)
		stream = Block(stream, tk)
		toks = append(toks, tk)
	}
	return stream, toks
}

func TestParse_roundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ w, h, rows, dict, chain int }{
		{300, 40, 16, 2, 0}, {1200, 70, 32, 2, 64}, {7, 300, 5, 1, 4}, {1, 50, 3, 0, 0}, {100, 1, 1, 0, 0},
	} {
		buf := image(rng, tc.w, tc.h)
		stream, _ := bands(buf, tc.w+1, tc.rows, tc.dict, &Parser{Chain: tc.chain})
		if got := inflate(t, stream); !bytes.Equal(got, buf) {
			t.Fatalf("%+v: inflated %d bytes, not the %d parsed", tc, len(got), len(buf))
		}
	}
}

func TestParse_randomAndEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 70000)
	for i := range buf {
		buf[i] = byte(rng.IntN(256))
	}
	var p Parser
	stream := Block(nil, p.Parse(nil, buf, 0, 0, len(buf), 1000))
	stream = Block(stream, nil) // an empty block
	if got := inflate(t, stream); !bytes.Equal(got, buf) {
		t.Fatal("random bytes do not round trip")
	}
	// One symbol only.
	one := bytes.Repeat([]byte{7}, 5000)
	if got := inflate(t, Block(nil, p.Parse(nil, one, 0, 0, len(one), 100))); !bytes.Equal(got, one) {
		t.Fatal("a run does not round trip")
	}
}

// TestSplice_roundTrip: bands spliced after random changes decode to the new bytes,
// keep most of the old tokens, and stay about as small as a new parse.
func TestSplice_roundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const w, h, rows, dict = 400, 96, 16, 2
	s := w + 1
	old := image(rng, w, h)
	var p Parser
	_, base := bands(old, s, rows, dict, &p)
	for round := range 20 {
		buf := append([]byte(nil), old...)
		dirty := make([]bool, len(buf))
		for range rng.IntN(6) + 1 { // boxes drawn over it
			x0, y0 := rng.IntN(w), rng.IntN(h)
			x1, y1 := min(w, x0+rng.IntN(60)+1), min(h, y0+rng.IntN(30)+1)
			c := byte(rng.IntN(256))
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					i := y*s + 1 + x
					if round%3 == 0 || (x+y)%3 == 0 {
						buf[i] = c
					}
					dirty[i] = true
				}
			}
		}
		changed := boolChanges(dirty)
		var stream, fresh []byte
		var sp Splicer
		kept, total := 0, 0
		for i, start := 0, 0; start < len(buf); i, start = i+1, start+rows*s {
			end := min(len(buf), start+rows*s)
			tk := sp.Splice(nil, base[i], buf, max(0, start-dict*s), start, end, s, changed)
			stream = Block(stream, tk)
			fresh = Block(fresh, p.Parse(nil, buf, max(0, start-dict*s), start, end, s))
			set := map[Token]bool{}
			for _, x := range base[i] {
				set[x] = true
			}
			for _, x := range tk {
				if set[x] {
					kept++
				}
			}
			total += len(tk)
		}
		if got := inflate(t, stream); !bytes.Equal(got, buf) {
			t.Fatalf("round %d: the spliced stream does not decode to the new bytes", round)
		}
		if kept*2 < total {
			t.Errorf("round %d: %d of %d tokens kept", round, kept, total)
		}
		if len(stream) > len(fresh)*13/10+64 {
			t.Errorf("round %d: spliced %d bytes, a new parse %d", round, len(stream), len(fresh))
		}
	}
}

// boolChanges are the changes marked true.
type boolChanges []bool

func (c boolChanges) Next(a, b int) (int, int) {
	for i := a; i < b; i++ {
		if c[i] {
			j := i
			for j < b && c[j] {
				j++
			}
			return i, j
		}
	}
	return b, b
}

func TestHuffman_lengthsBounded(t *testing.T) {
	// Fibonacci weights make the deepest Huffman trees.
	freq := make([]int32, 40)
	a, b := int32(1), int32(1)
	for i := range freq {
		freq[i] = a
		a, b = b, a+b
		if a > 1<<29 {
			a, b = 1, 1
		}
	}
	var h huffman
	for _, max := range []int{7, 15} {
		h.build(freq, max)
		kraft := 0.0
		for s, l := range h.lens {
			if l == 0 || int(l) > max {
				t.Fatalf("symbol %d: length %d, want 1..%d", s, l, max)
			}
			kraft += 1 / float64(uint(1)<<l)
		}
		if kraft != 1 {
			t.Errorf("max %d: Kraft sum %g, want a complete code", max, kraft)
		}
	}
}

func TestAdler(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := make([]byte, 100000)
	for i := range x {
		x[i] = byte(rng.IntN(256))
	}
	for _, cut := range []int{0, 1, 5552, 65521, 70000, 100000} {
		if got, want := AdlerJoin(Adler(x[:cut]), Adler(x[cut:]), len(x)-cut), adler32.Checksum(x); got != want {
			t.Errorf("join at %d: %08x, want %08x", cut, got, want)
		}
	}
	y := append([]byte(nil), x...)
	for i := 300; i < 90000; i += 7 {
		y[i] = byte(rng.IntN(256))
	}
	if got, want := AdlerChange(Adler(x), len(x), 300, x[300:90000], y[300:90000]), adler32.Checksum(y); got != want {
		t.Errorf("change: %08x, want %08x", got, want)
	}
}
