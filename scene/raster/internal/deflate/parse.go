package deflate

import "encoding/binary"

// Parser finds the matches of a band with hash chains and lazy matching (as zlib's
// slower levels do), trying besides the chain a few distances that an image's rows
// repeat at: the row above, shifted by a pixel or two, and two rows above. The zero
// Parser is ready; one Parser parses one band at a time.
type Parser struct {
	// Chain bounds the earlier positions tried per position (32 when zero).
	Chain int
	head  []int32 // by hash: the latest position + 1 (0: none)
	prev  []int32 // by position less the window's start: the previous with its hash
}

const hashBits = 15

func hash4(buf []byte, i int) uint32 {
	return binary.LittleEndian.Uint32(buf[i:]) * 2654435761 >> (32 - hashBits)
}

// Parse appends the tokens of buf[start:end] to dst. Matches reach back to winStart
// (and at most MaxDist); stride is the length of a row of the image (candidates at
// the row above).
func (p *Parser) Parse(dst []Token, buf []byte, winStart, start, end, stride int) []Token {
	chain := p.Chain
	if chain <= 0 {
		chain = 32
	}
	if p.head == nil {
		p.head = make([]int32, 1<<hashBits)
	}
	clear(p.head)
	n := end - winStart
	if cap(p.prev) < n {
		p.prev = make([]int32, n)
	}
	p.prev = p.prev[:n]
	insert := func(i int) {
		if i+4 <= end {
			h := hash4(buf, i)
			p.prev[i-winStart] = p.head[h]
			p.head[h] = int32(i + 1)
		}
	}
	for i := max(winStart, start-MaxDist); i < start; i++ {
		insert(i)
	}
	lo := max(winStart, start-MaxDist)
	cands := rowCandidates(stride)
	// best returns the longest match at i (length 0 when under MinMatch).
	best := func(i int, last int) (int, int) {
		limit := min(MaxMatch, end-i)
		if limit < MinMatch {
			return 0, 0
		}
		bl, bd := 0, 0
		try := func(d int) bool {
			if d <= 0 || d > MaxDist || i-d < max(lo, winStart) {
				return false
			}
			if l := matchLen(buf, i-d, i, limit); l > bl {
				bl, bd = l, d
			}
			return bl == limit
		}
		if try(last) {
			return bl, bd
		}
		for _, d := range cands {
			if try(d) {
				return bl, bd
			}
		}
		if i+4 <= end {
			j := int(p.head[hash4(buf, i)]) - 1
			for k := 0; k < chain && j >= winStart && i-j <= MaxDist; k++ {
				if buf[j+bl] == buf[i+bl] || bl == 0 {
					if try(i - j) {
						break
					}
				}
				j = int(p.prev[j-winStart]) - 1
			}
		}
		if bl < MinMatch {
			return 0, 0
		}
		return bl, bd
	}
	last := 0
	for i := start; i < end; {
		l, d := best(i, last)
		if l > 0 && l < 32 && i+1 < end {
			insert(i)
			if l2, _ := best(i+1, last); l2 > l {
				dst = append(dst, Literal(buf[i]))
				i++
				continue
			}
			for k := i + 1; k < i+l; k++ {
				insert(k)
			}
		} else {
			for k := i; k < i+max(l, 1); k++ {
				insert(k)
			}
		}
		if l == 0 {
			dst = append(dst, Literal(buf[i]))
			i++
			continue
		}
		dst = append(dst, Match(l, d))
		last = d
		i += l
	}
	return dst
}

// rowCandidates are the distances tried at every position of an image with rows of
// stride bytes: a run, the row above and its neighbours, two rows above.
func rowCandidates(stride int) []int {
	return []int{1, stride, stride - 1, stride + 1, stride - 2, stride + 2, 2 * stride}
}

// Changes tells which bytes of a buffer changed since the content a parse was made
// of.
type Changes interface {
	// Next returns the first run of changed bytes within [a, b): [c0, c1), or c0 = b
	// when none changed.
	Next(a, b int) (c0, c1 int)
}

// Splicer splices bands (Splice). It keeps hash chains of the bytes it parsed again,
// so that a changed byte finds its match among the other changed bytes before it (a
// label's letters repeat those of another label). The zero Splicer is ready; Reset
// it before splicing the bands of another buffer.
type Splicer struct {
	head [1 << spliceHashBits]int32 // by hash: the latest position + 1
	prev [1 << 16]int32             // by position (mod 2^16): the previous with its hash
	used bool

	buf              []byte
	winStart, stride int
	cands            []int
	last             int
	kept             []placed
}

const spliceHashBits = 13

// spliceChain bounds the earlier changed positions tried per position.
const spliceChain = 8

// Reset forgets the positions of an earlier buffer.
func (sp *Splicer) Reset() {
	if sp.used {
		clear(sp.head[:])
		sp.used = false
	}
}

func (sp *Splicer) hash(i int) uint32 {
	return binary.LittleEndian.Uint32(sp.buf[i:]) * 2654435761 >> (32 - spliceHashBits)
}

// next returns the longest match at i of at most limit bytes, from the candidate
// distances and the chains of the bytes parsed again before (length 0 when under
// MinMatch). No chains are built over the whole window: that would cost more than
// they find.
func (sp *Splicer) next(i, limit int) (int, int) {
	if limit < MinMatch {
		return 0, 0
	}
	buf := sp.buf
	lo := max(sp.winStart, 0)
	bl, bd := 0, 0
	// try tries distance d: a match longer than the best so far must agree at the
	// best's length first, which most candidates do not.
	try := func(d int) {
		if d <= 0 || d > MaxDist || i-d < lo || buf[i-d+bl] != buf[i+bl] || buf[i-d] != buf[i] {
			return
		}
		if l := matchLen(buf, i-d, i, limit); l > bl {
			bl, bd = l, d
		}
	}
	try(sp.last)
	for _, d := range sp.cands {
		if bl == limit {
			return bl, bd
		}
		try(d)
	}
	if i+4 <= len(buf) && bl < limit {
		j := int(sp.head[sp.hash(i)]) - 1
		for k := 0; k < spliceChain && j >= lo && i-j <= MaxDist && bl < limit; k++ {
			if j < i {
				try(i - j)
			}
			j = int(sp.prev[j&0xffff]) - 1
		}
	}
	if bl < MinMatch {
		return 0, 0
	}
	return bl, bd
}

func (sp *Splicer) insert(i int) {
	if i+4 <= len(sp.buf) {
		h := sp.hash(i)
		sp.prev[i&0xffff] = sp.head[h]
		sp.head[h] = int32(i + 1)
	}
}

// placed is a kept token and where it starts.
type placed struct {
	pos int
	t   Token
}

// Splice appends to dst the tokens of buf[start:end] made from base, a parse of the
// same range of an earlier content of buf: a token whose bytes and source did not
// change is kept, a match that changed keeps the parts of it (3 bytes or more) whose
// bytes and source did not, and the bytes between are parsed again with the row
// candidates, the extra distances given (an image's pattern periods) and the chains
// of the bytes parsed again before; a match found there may run on over the kept
// tokens after it, which then lose their start. Matches reach back to winStart, as
// in Parse.
func (sp *Splicer) Splice(dst []Token, base []Token, buf []byte, winStart, start, end, stride int, ch Changes, extra ...int) []Token {
	sp.buf, sp.winStart, sp.stride, sp.last = buf, winStart, stride, 0
	sp.cands = append(append(sp.cands[:0], rowCandidates(stride)...), extra...)
	sp.used = true
	// The tokens kept.
	kept := sp.kept[:0]
	pos := start
	for _, t := range base {
		l := t.Len()
		if !t.IsMatch() {
			if c0, _ := ch.Next(pos, pos+1); c0 > pos {
				kept = append(kept, placed{pos, t})
			}
			pos++
			continue
		}
		d := t.Dist()
		for j := 0; j < l; {
			// The next changed byte of the match's bytes or of its source.
			t0, t1 := ch.Next(pos+j, pos+l)
			s0, s1 := ch.Next(pos-d+j, pos-d+l)
			t0, t1, s0, s1 = t0-pos, t1-pos, s0-(pos-d), s1-(pos-d)
			k, e := t0, t1
			if s0 < t0 || (s0 == t0 && s1 > t1) {
				k, e = s0, s1
			}
			if k-j >= MinMatch {
				kept = append(kept, placed{pos + j, Match(k-j, d)})
			}
			j = e
		}
		pos += l
	}
	sp.kept = kept
	// The kept tokens in order, the bytes between them parsed again.
	i, k := start, 0
	for i < end {
		for k < len(kept) && kept[k].pos+kept[k].t.Len() <= i {
			k++ // run over by a match parsed again
		}
		if k < len(kept) && kept[k].pos <= i {
			t := kept[k].t
			if kept[k].pos < i { // its start run over: what is left of it
				left := kept[k].pos + t.Len() - i
				k++
				if left < MinMatch {
					for ; left > 0; left-- {
						dst = append(dst, Literal(buf[i]))
						i++
					}
					continue
				}
				t = Match(left, t.Dist())
			} else {
				k++
			}
			dst = append(dst, t)
			if t.IsMatch() {
				sp.last = t.Dist()
			}
			i += t.Len()
			continue
		}
		l, d := sp.next(i, min(MaxMatch, end-i))
		if l > 0 && l < 16 && i+1 < end {
			if l2, _ := sp.next(i+1, min(MaxMatch, end-i-1)); l2 > l+1 {
				l = 0
			}
		}
		if l == 0 {
			dst = append(dst, Literal(buf[i]))
			sp.insert(i)
			i++
			continue
		}
		dst = append(dst, Match(l, d))
		sp.last = d
		for j := i; j < i+l; j++ {
			sp.insert(j)
		}
		i += l
	}
	sp.buf = nil
	return dst
}
