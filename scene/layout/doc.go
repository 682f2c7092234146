// Package layout holds the drawings of the game boards: for every region of a Small
// World family map (Small World, Underground) and of every Eight-Minute Empire face,
// its outline, where its label goes and how much room the label has, and the links
// drawn as lines (sea routes, crossings, borders a planar drawing cannot show).
//
// The printed boards' layouts are data embedded under data/, one file per board: a
// grid of hexagonal cells naming the region that owns each cell, generated from where
// public sources put each region (go generate runs internal/gen; data/PROVENANCE.md
// names the sources). They are validated when first used: every region owns cells,
// all connected, and the traced outlines are sound. Any other map gets a layout
// computed from its graph (ForMap).
//
// Every layout shows exactly its map's adjacency: two regions share a stretch of
// outline if and only if they border each other on the map, unless the border is
// drawn as a Link. Board.Borders derives the shown borders from the geometry, so a
// test can compare them with the map.
//
// Boards returned by this package are shared and cached: callers must not modify
// them.
package layout

//go:generate go run ./internal/gen
