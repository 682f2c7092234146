package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/service"
)

var stop = errors.New("stop")

func main() {
	tr, err := i18n.Load()
	if err != nil {
		panic(err)
	}
	reg := games.Registry()
	for _, kind := range reg.Names() {
		for _, cfg := range selfplay.Configs(reg[kind], 11, 2) {
			var last engine.State
			selfplay.Play(reg[kind], cfg, func(s selfplay.Step) error {
				last = s.State
				if s.N == 90 {
					return stop
				}
				return nil
			})
			for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
				_, png, err := service.Picture(tr, lang, kind, last.View("ann"), []string{"5", "6"})
				if err != nil {
					fmt.Println(kind, err)
					continue
				}
				name := fmt.Sprintf("/tmp/pics/%s-%dp-%s.png", kind, cfg.Players, lang)
				os.WriteFile(name, png, 0o644)
				fmt.Println(name, len(png))
			}
		}
	}
}
