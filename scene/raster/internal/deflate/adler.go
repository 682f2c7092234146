package deflate

import "hash/adler32"

// adlerMod is Adler-32's modulus.
const adlerMod = 65521

// Adler returns the Adler-32 checksum of b (RFC 1950).
func Adler(b []byte) uint32 { return adler32.Checksum(b) }

// AdlerJoin returns the checksum of x followed by y from the checksum of x, the
// checksum of y and y's length. With A the sum of the bytes plus one and B the sum of
// the A after each byte: A(xy) = A(x) + A(y) - 1, B(xy) = B(x) + B(y) + len(y)·(A(x) - 1).
func AdlerJoin(x, y uint32, ylen int) uint32 {
	ax, bx := uint64(x&0xffff), uint64(x>>16)
	ay, by := uint64(y&0xffff), uint64(y>>16)
	n := uint64(ylen) % adlerMod
	a := (ax + ay + adlerMod - 1) % adlerMod
	b := (bx + by + n*((ax+adlerMod-1)%adlerMod)) % adlerMod
	return uint32(b<<16 | a)
}

// AdlerChange returns the checksum of a sequence of n bytes whose checksum was sum,
// after the bytes from offset at changed from old to new (of the same length). Byte
// i of n counts once in A and n-i times in B, so only the changed bytes are read.
func AdlerChange(sum uint32, n, at int, old, new []byte) uint32 {
	var da, db int64 // the changes, kept within ±2^62
	for k := range new {
		if k&0xfff == 0 {
			da %= adlerMod
			db %= adlerMod
		}
		if d := int64(new[k]) - int64(old[k]); d != 0 {
			da += d
			db += d * int64(n-at-k)
		}
	}
	mod := func(v int64) uint64 { return uint64((v%adlerMod + adlerMod) % adlerMod) }
	a := (uint64(sum&0xffff) + mod(da)) % adlerMod
	b := (uint64(sum>>16) + mod(db)) % adlerMod
	return uint32(b<<16 | a)
}
