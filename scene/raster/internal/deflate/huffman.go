package deflate

import (
	"cmp"
	"math/bits"
	"slices"
)

// bitWriter packs bits from the least significant, as deflate does.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// bits writes the n (at most 32) low bits of v.
func (w *bitWriter) bits(v uint32, n uint) {
	w.acc |= uint64(v) << w.n
	w.n += n
	if w.n >= 32 {
		w.out = append(w.out, byte(w.acc), byte(w.acc>>8), byte(w.acc>>16), byte(w.acc>>24))
		w.acc >>= 32
		w.n -= 32
	}
}

// align pads the bits written to a whole byte and flushes them.
func (w *bitWriter) align() {
	for w.n > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n = uint(max(0, int(w.n)-8))
	}
	w.acc = 0
}

// huffman is a canonical prefix code: each symbol's length and its code, bit
// reversed for the bit writer.
type huffman struct {
	lens  []uint8
	codes []uint16
}

// build sets h to a prefix code for freq, no code longer than maxBits: Huffman's
// lengths, the longest shortened as JPEG's Annex K.3 does when over maxBits. At
// least two symbols get a code (decoders want a complete code).
func (h *huffman) build(freq []int32, maxBits int) {
	n := len(freq)
	h.lens = slices.Grow(h.lens[:0], n)[:n]
	h.codes = slices.Grow(h.codes[:0], n)[:n]
	clear(h.lens)
	type leaf struct {
		w   int32
		sym int
	}
	leaves := make([]leaf, 0, n)
	for s, f := range freq {
		if f > 0 {
			leaves = append(leaves, leaf{f, s})
		}
	}
	for s := 0; len(leaves) < 2 && s < n; s++ {
		if freq[s] == 0 {
			leaves = append(leaves, leaf{1, s})
		}
	}
	slices.SortFunc(leaves, func(a, b leaf) int { return cmp.Or(cmp.Compare(a.w, b.w), cmp.Compare(a.sym, b.sym)) })
	// Two queues: the sorted leaves and the internal nodes, made in order of weight.
	m := len(leaves)
	weight := make([]int32, 2*m-1)
	parent := make([]int, 2*m-1)
	for i, l := range leaves {
		weight[i] = l.w
	}
	li, ni := 0, m // next leaf, next internal node to take
	pick := func(next int) int {
		if li < m && (ni >= next || weight[li] <= weight[ni]) {
			li++
			return li - 1
		}
		ni++
		return ni - 1
	}
	for next := m; next < 2*m-1; next++ {
		a := pick(next)
		b := pick(next)
		weight[next] = weight[a] + weight[b]
		parent[a], parent[b] = next, next
	}
	depth := make([]int, 2*m-1)
	count := make([]int, m+1) // leaves at each depth
	for i := 2*m - 3; i >= 0; i-- {
		depth[i] = depth[parent[i]] + 1
		if i < m {
			count[depth[i]]++
		}
	}
	for d := m; d > maxBits; d-- {
		for count[d] > 0 {
			j := d - 2
			for count[j] == 0 {
				j--
			}
			count[d] -= 2
			count[d-1]++
			count[j+1] += 2
			count[j]--
		}
	}
	// The shortest codes to the most frequent symbols.
	k := m - 1
	for d := 1; d <= min(m, maxBits); d++ {
		for range count[d] {
			h.lens[leaves[k].sym] = uint8(d)
			k--
		}
	}
	h.assign()
}

// assign gives the canonical codes of h.lens.
func (h *huffman) assign() {
	var count, next [16]uint16
	for _, l := range h.lens {
		count[l]++
	}
	count[0] = 0
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for s, l := range h.lens {
		if l > 0 {
			h.codes[s] = bits.Reverse16(next[l]) >> (16 - l)
			next[l]++
		}
	}
}

func (h *huffman) write(w *bitWriter, sym int) { w.bits(uint32(h.codes[sym]), uint(h.lens[sym])) }

// clOrder is the order in which a dynamic block gives the lengths of the code
// length code.
var clOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// encoder keeps the scratch space of writing blocks.
type encoder struct {
	lit, dist, cl huffman
	litFreq       [286]int32
	distFreq      [30]int32
	clFreq        [19]int32
	rle           []uint16 // code length symbols, each with its extra bits value << 5
	lens          []uint8
}

// Block appends to dst the tokens as one deflate block with codes made for them
// (not final), then a sync flush, so that the result ends on a byte.
func Block(dst []byte, toks []Token) []byte {
	var e encoder
	return e.block(dst, toks)
}

func (e *encoder) block(dst []byte, toks []Token) []byte {
	clear(e.litFreq[:])
	clear(e.distFreq[:])
	for _, t := range toks {
		if t&matchFlag == 0 {
			e.litFreq[t&0xff]++
			continue
		}
		e.litFreq[257+int(lengthCode[t>>15&0xff])]++
		e.distFreq[distCode(int(t&0x7fff)+1)]++
	}
	e.litFreq[256]++ // end of block
	e.lit.build(e.litFreq[:], 15)
	e.dist.build(e.distFreq[:], 15)
	nlit, ndist := 286, 30
	for nlit > 257 && e.lit.lens[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && e.dist.lens[ndist-1] == 0 {
		ndist--
	}
	// The two codes' lengths, run-length coded (RFC 1951 3.2.7).
	e.lens = append(append(e.lens[:0], e.lit.lens[:nlit]...), e.dist.lens[:ndist]...)
	e.rle = e.rle[:0]
	clear(e.clFreq[:])
	emit := func(sym, extra int) {
		e.rle = append(e.rle, uint16(sym|extra<<5))
		e.clFreq[sym]++
	}
	for i := 0; i < len(e.lens); {
		l := int(e.lens[i])
		run := 1
		for i+run < len(e.lens) && int(e.lens[i+run]) == l {
			run++
		}
		i += run
		if l == 0 {
			for run >= 11 {
				r := min(run, 138)
				emit(18, r-11)
				run -= r
			}
			if run >= 3 {
				emit(17, run-3)
				run = 0
			}
		} else {
			emit(l, 0)
			run--
			for run >= 3 {
				r := min(run, 6)
				emit(16, r-3)
				run -= r
			}
		}
		for ; run > 0; run-- {
			emit(l, 0)
		}
	}
	e.cl.build(e.clFreq[:], 7)
	ncl := 19
	for ncl > 4 && e.cl.lens[clOrder[ncl-1]] == 0 {
		ncl--
	}

	w := bitWriter{out: dst}
	w.bits(0|2<<1, 3) // not final, dynamic codes
	w.bits(uint32(nlit-257), 5)
	w.bits(uint32(ndist-1), 5)
	w.bits(uint32(ncl-4), 4)
	for _, s := range clOrder[:ncl] {
		w.bits(uint32(e.cl.lens[s]), 3)
	}
	for _, r := range e.rle {
		sym, extra := int(r&31), uint32(r>>5)
		e.cl.write(&w, sym)
		switch sym {
		case 16:
			w.bits(extra, 2)
		case 17:
			w.bits(extra, 3)
		case 18:
			w.bits(extra, 7)
		}
	}
	for _, t := range toks {
		if t&matchFlag == 0 {
			e.lit.write(&w, int(t&0xff))
			continue
		}
		lc := int(lengthCode[t>>15&0xff])
		e.lit.write(&w, 257+lc)
		if n := lengthExtra[lc]; n > 0 {
			w.bits(uint32(int(t>>15&0xff)+MinMatch-int(lengthBase[lc])), uint(n))
		}
		d := int(t&0x7fff) + 1
		dc := distCode(d)
		e.dist.write(&w, dc)
		if n := distExtra[dc]; n > 0 {
			w.bits(uint32(d-int(distBase[dc])), uint(n))
		}
	}
	e.lit.write(&w, 256)
	// Sync flush: an empty stored block, which starts on the next byte.
	w.bits(0, 3)
	w.align()
	return append(w.out, 0, 0, 0xff, 0xff)
}

// End is the last block of a stream: empty, final, with the fixed codes.
var End = []byte{0x03, 0x00}
