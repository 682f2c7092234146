package draw

import (
	"errors"

	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/scene"
)

func dungeon(v *dungeoneer.View, in Input) (*scene.Scene, error) { return nil, errors.New("todo") }
