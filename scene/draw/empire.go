package draw

import (
	"errors"

	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/scene"
)

func eightMinute(v *empire.View, in Input) (*scene.Scene, error) { return nil, errors.New("todo") }
