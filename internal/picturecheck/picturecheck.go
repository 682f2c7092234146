// Package picturecheck reads the board's picture back from a composed state mail, for
// tests: the HTML part shows it by its Content-ID, the mail carries it as a PNG part of
// that Content-ID in a multipart/related with the HTML, within raster.MaxBytes, drawn
// at twice the size the HTML shows it.
package picturecheck

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/emersion/go-message"

	"github.com/turnmail/turnmail/scene/raster"
)

// imgTag matches the picture's element in a state mail's HTML.
var imgTag = regexp.MustCompile(`<img src="cid:([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]+)"`)

// Picture is a state mail's picture as read back.
type Picture struct {
	CID           string
	Width, Height int // as the HTML shows it, in CSS pixels
	Alt           string
	PNG           []byte
}

// Read returns raw's picture, checked: an error when the mail has no picture or a
// picture the HTML and the parts do not agree on, or one over budget.
func Read(raw []byte) (*Picture, error) {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read mail: %w", err)
	}
	var html string
	images := map[string][]byte{}
	related := false
	var walk func(e *message.Entity, inRelated bool) error
	walk = func(e *message.Entity, inRelated bool) error {
		mt, params, _ := e.Header.ContentType()
		if mr := e.MultipartReader(); mr != nil {
			rel := mt == "multipart/related" && params["type"] == "text/html"
			for {
				p, err := mr.NextPart()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return err
				}
				if err := walk(p, rel); err != nil {
					return err
				}
			}
		}
		b, err := io.ReadAll(e.Body)
		if err != nil {
			return err
		}
		switch {
		case mt == "text/html":
			html, related = string(b), inRelated
		case strings.HasPrefix(mt, "image/") && inRelated:
			images[strings.Trim(e.Header.Get("Content-Id"), "<>")] = b
		}
		return nil
	}
	if err := walk(e, false); err != nil {
		return nil, fmt.Errorf("read parts: %w", err)
	}
	m := imgTag.FindStringSubmatch(html)
	if m == nil {
		return nil, errors.New("the HTML shows no picture")
	}
	p := &Picture{CID: m[1], Alt: m[4], PNG: images[m[1]]}
	p.Width, _ = strconv.Atoi(m[2])
	p.Height, _ = strconv.Atoi(m[3])
	switch {
	case !related:
		return nil, errors.New("the HTML is not in a multipart/related part of type text/html")
	case p.PNG == nil:
		return nil, fmt.Errorf("no picture part of Content-ID %s", m[1])
	case len(p.PNG) > raster.MaxBytes:
		return nil, fmt.Errorf("picture of %d bytes, over %d", len(p.PNG), raster.MaxBytes)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(p.PNG))
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	if cfg.Width != raster.Scale*p.Width || abs(cfg.Height-raster.Scale*p.Height) > raster.Scale {
		return nil, fmt.Errorf("picture of %dx%d pixels shown at %dx%d: want %d×", cfg.Width, cfg.Height, p.Width, p.Height, raster.Scale)
	}
	return p, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
