// Package layoutfile reads and writes turnmail's board layout files: a board drawn
// as a grid of hexagonal cells, each cell named by the key of the region owning it
// ("." for none: an Empire face's sea), plus the links drawn as lines and an Empire
// face's islands and exits. The format is text so that a layout can be read and
// reviewed like a map:
//
//	turnmail-layout 1
//	board smallworld-2p
//	source where the positions come from
//	grid 58 40
//	island Crown a b c d e        (Empire faces: an island and its regions, in order)
//	link border 12 31             (a border drawn as a line; Empire: sea, crossing)
//	exit n a                      (Empire faces: a sea route leaving by a side)
//	cells
//	 1  1  1  2  2 …              (one line per row, top first; odd rows lie half a
//	 …                             cell to the right)
package layoutfile

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Magic is the first line of a layout file.
const Magic = "turnmail-layout 1"

// Empty is the key of a cell that belongs to no region.
const Empty = "."

// Limits on a layout file's size.
const (
	MaxSide = 400
	maxKey  = 8
)

// File is a layout file's content.
type File struct {
	Board, Source string
	Cols, Rows    int
	// Islands are an Empire face's islands, each a name and its region keys.
	Islands []Island
	Links   []Link
	Exits   []Exit
	// Cells holds each cell's region key (Empty for none), row by row from the top.
	Cells []string
}

// Island is a named group of regions.
type Island struct {
	Name    string
	Regions []string
}

// Link is a connection drawn as a line between two regions.
type Link struct{ Kind, A, B string }

// Exit is a sea route leaving an Empire face by a side.
type Exit struct{ Side, Region string }

// Parse reads a layout file. It checks the syntax and the grid's shape, not what the
// cells mean.
func Parse(raw []byte) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("layout line %d: %s", line, fmt.Sprintf(format, args...))
	}
	inCells := false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			if text != Magic {
				return nil, fail("want %q", Magic)
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if inCells {
			row := strings.Fields(text)
			if len(row) != f.Cols {
				return nil, fail("%d cells in a row of %d", len(row), f.Cols)
			}
			if len(f.Cells)/max(f.Cols, 1) >= f.Rows {
				return nil, fail("more than %d rows", f.Rows)
			}
			for _, k := range row {
				if len(k) > maxKey {
					return nil, fail("key %.20q too long", k)
				}
			}
			f.Cells = append(f.Cells, row...)
			continue
		}
		word, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		args := strings.Fields(rest)
		switch word {
		case "board":
			f.Board = rest
		case "source":
			f.Source = rest
		case "grid":
			if len(args) != 2 {
				return nil, fail("grid COLS ROWS")
			}
			c, err1 := strconv.Atoi(args[0])
			r, err2 := strconv.Atoi(args[1])
			if err1 != nil || err2 != nil || c < 2 || r < 2 || c > MaxSide || r > MaxSide {
				return nil, fail("grid %q: want two sizes from 2 to %d", rest, MaxSide)
			}
			f.Cols, f.Rows = c, r
		case "island":
			if len(args) < 2 {
				return nil, fail("island NAME KEY…")
			}
			f.Islands = append(f.Islands, Island{Name: args[0], Regions: args[1:]})
		case "link":
			if len(args) != 3 {
				return nil, fail("link KIND A B")
			}
			f.Links = append(f.Links, Link{args[0], args[1], args[2]})
		case "exit":
			if len(args) != 2 {
				return nil, fail("exit SIDE REGION")
			}
			f.Exits = append(f.Exits, Exit{args[0], args[1]})
		case "cells":
			if f.Cols == 0 {
				return nil, fail("cells before grid")
			}
			inCells = true
		default:
			return nil, fail("unknown line %.20q", word)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	if f.Board == "" || len(f.Cells) != f.Cols*f.Rows {
		return nil, fmt.Errorf("layout %q: %d cells, want a board name and %d×%d cells", f.Board, len(f.Cells), f.Cols, f.Rows)
	}
	return f, nil
}

// Format writes f; Parse reads it back.
func (f *File) Format(comments ...string) []byte {
	var b bytes.Buffer
	b.WriteString(Magic + "\n")
	for _, c := range comments {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	fmt.Fprintf(&b, "board %s\nsource %s\ngrid %d %d\n", f.Board, f.Source, f.Cols, f.Rows)
	for _, is := range f.Islands {
		fmt.Fprintf(&b, "island %s %s\n", is.Name, strings.Join(is.Regions, " "))
	}
	for _, l := range f.Links {
		fmt.Fprintf(&b, "link %s %s %s\n", l.Kind, l.A, l.B)
	}
	for _, e := range f.Exits {
		fmt.Fprintf(&b, "exit %s %s\n", e.Side, e.Region)
	}
	width := 1
	for _, k := range f.Cells {
		width = max(width, len(k))
	}
	b.WriteString("cells\n")
	for r := range f.Rows {
		if r%2 == 1 {
			b.WriteString(strings.Repeat(" ", (width+1)/2))
		}
		for c := range f.Cols {
			fmt.Fprintf(&b, " %*s", width, f.Cells[r*f.Cols+c])
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}
