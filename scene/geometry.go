package scene

import "math"

// SignedDistance returns the distance from p to the nearest edge of rings (a
// region's outer ring and its holes), negative when p lies outside the region:
// outside its outer ring or inside a hole.
func SignedDistance(p Point, rings [][]Point) float64 {
	inside := false
	best := math.Inf(1) // the least squared distance
	for _, ring := range rings {
		for i, a := range ring {
			b := ring[(i+1)%len(ring)]
			if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
				inside = !inside
			}
			best = min(best, SquaredSegmentDistance(p, a, b))
		}
	}
	d := math.Sqrt(best)
	if !inside {
		return -d
	}
	return d
}

// SquaredSegmentDistance returns the squared distance from p to the segment a–b.
func SquaredSegmentDistance(p, a, b Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
	}
	ex, ey := p.X-a.X-t*dx, p.Y-a.Y-t*dy
	return ex*ex + ey*ey
}
