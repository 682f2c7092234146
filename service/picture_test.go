package service

import "github.com/turnmail/turnmail/internal/picturecheck"

// checkPicture checks a state mail's picture (see picturecheck.Read).
func checkPicture(raw []byte, _ string) error {
	_, err := picturecheck.Read(raw)
	return err
}
