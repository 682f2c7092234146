package service

import (
	"bytes"
	"fmt"
	"image/png"
	"regexp"
	"strings"

	"github.com/emersion/go-message"

	"github.com/turnmail/turnmail/scene/raster"
)

// imgTag matches the picture's element in a state mail's HTML.
var imgTag = regexp.MustCompile(`<img src="cid:([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]+)"`)

// checkPicture checks a state mail's picture: the HTML shows it by its Content-ID
// with a size and an alt text, the mail carries it as a PNG of that Content-ID (in a
// multipart/related with the HTML) at twice that size and within raster.MaxBytes.
func checkPicture(raw []byte, html string) error {
	m := imgTag.FindStringSubmatch(html)
	if m == nil {
		return fmt.Errorf("no picture in the HTML")
	}
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	var found []byte
	var related bool
	var walk func(e *message.Entity) error
	walk = func(e *message.Entity) error {
		mt, params, _ := e.Header.ContentType()
		if mt == "multipart/related" && params["type"] == "text/html" {
			related = true
		}
		if mr := e.MultipartReader(); mr != nil {
			for {
				p, err := mr.NextPart()
				if err != nil {
					return nil
				}
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		if mt == "image/png" && strings.Trim(e.Header.Get("Content-Id"), "<>") == m[1] {
			var b bytes.Buffer
			if _, err := b.ReadFrom(e.Body); err != nil {
				return err
			}
			found = b.Bytes()
		}
		return nil
	}
	if err := walk(e); err != nil {
		return err
	}
	if !related || found == nil {
		return fmt.Errorf("picture %s: related part %v, PNG found %v", m[1], related, found != nil)
	}
	if len(found) > raster.MaxBytes {
		return fmt.Errorf("picture of %d bytes, over %d", len(found), raster.MaxBytes)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(found))
	if err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	if w, h := fmt.Sprint(cfg.Width), fmt.Sprint(cfg.Height); w != fmt.Sprint(2*atoi(m[2])) || (h != fmt.Sprint(2*atoi(m[3])) && h != fmt.Sprint(2*atoi(m[3])-1) && h != fmt.Sprint(2*atoi(m[3])+1)) {
		return fmt.Errorf("picture %sx%s, shown at %sx%s: want twice", w, h, m[2], m[3])
	}
	return nil
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
