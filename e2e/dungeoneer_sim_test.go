package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates"
)

// TestDungeonBot_finishes plays seeded two-player Dungeoneer games with the mail
// bots' strategy, in English and in Italian, each bot reading only the state mail
// the service would send it (rendered by the templates in its language, the commands
// in its words, without the mail round trips), and fails when a game does not end
// within maxDungeonCommands commands: the bound that keeps TestBotsByMail/dungeoneer
// within the normal test time (random commands took 100 to 1100). Every mail is also
// checked to read as the view it shows (dungeonReadingProblem), and an Italian bot
// writes every command in Italian words.
func TestDungeonBot_finishes(t *testing.T) {
	t.Parallel()
	const maxDungeonCommands = 400
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
		t.Run(string(lang), func(t *testing.T) {
			rd := newReading(t, lang)
			in := func(cmds []string) []string {
				var out []string
				for _, c := range cmds {
					out = append(out, tr.Command("dungeoneer", lang, c))
				}
				return out
			}
			// played counts the bots' commands by phase and verb ("lord play", "guard attack").
			played := map[string]int{}
			for seed := int64(1); seed <= 12; seed++ {
				setup := engine.Setup{Game: "dungeoneer", Players: []engine.Player{{Name: "ann"}, {Name: "ben"}}, Seed: seed}
				fixed := map[string]json.RawMessage{}
				engine.StampSetup(dungeoneer.Game{}, fixed) // the rules new games get
				setup.Fixed, _ = json.Marshal(fixed)
				st, _, err := engine.Start(dungeoneer.Game{}, setup, nil)
				if err != nil {
					t.Fatal(err)
				}
				bots := map[string]*bot{}
				for _, n := range []string{"ann", "ben"} {
					bots[n] = &bot{name: n, kind: "dungeoneer", rd: rd, rng: rand.New(rand.NewPCG(uint64(seed), 1)), filled: map[string]int{}}
				}
				n := 0
				for ; !st.Finished() && n < maxDungeonCommands; n++ {
					who, waiting, outOfTurn := st.ToAct()[0], false, ""
					// A bot whose move it is not acts when its mail's commands of any
					// moment move it to (a special action out of turn, a heal).
					for _, o := range []string{"ann", "ben"} {
						if !slices.Contains(st.ToAct(), o) && len(engine.AnyTime(st, o)) > 0 {
							text, _ := dungeonSimMail(t, set, st, o, lang, in)
							if outOfTurn = bots[o].dungeonOutOfTurn(text, text); outOfTurn != "" {
								who, waiting = o, true
								break
							}
						}
					}
					text, v := dungeonSimMail(t, set, st, who, lang, in)
					if p := dungeonReadingProblem(rd, text, v, who, st.Legal(who)); p != "" {
						t.Fatalf("seed %d: %s's mail reads wrong: %s\n%s", seed, who, p, text)
					}
					var cmd string
					if waiting {
						cmd = outOfTurn
					} else if cmd, err = bots[who].choose(text, text); err != nil {
						t.Fatal(err)
					}
					canon, translated := tr.Canonical("dungeoneer", cmd)
					if lang != i18n.English && !translated {
						t.Errorf("seed %d: %s sent %q, which is not in %s words", seed, who, cmd, lang)
					}
					if waiting {
						played["out-of-turn "+strings.Fields(canon)[0]]++
					} else {
						played[v.Phase+" "+strings.Fields(canon)[0]]++
					}
					if st, _, err = engine.Step(st, seed, n+1, who, canon, nil); err != nil {
						t.Fatalf("seed %d: %s sent %q: %v\n%s", seed, who, cmd, err, text)
					}
				}
				if !st.Finished() {
					t.Errorf("seed %d: not over after %d commands (round %d)", seed, n, st.Turn())
				}
				t.Logf("seed %d: %d commands, %d rounds", seed, n, st.Turn())
			}
			t.Logf("commands by phase and verb: %v", played)
			// The Dungeon Lord plays by mail: Encounters and Banes, the spoils, the monsters of
			// quest and map cards; the heroes answer.
			for _, want := range []string{"lord play", "spoils peril", "guard attack", "respond play", "out-of-turn challenge", "out-of-turn stand"} {
				if played[want] == 0 {
					t.Errorf("no %q in 12 games: %v", want, played)
				}
			}
		})
	}
}

// dungeonReadingProblem says what the bot reads wrong in a Dungeoneer state mail
// text of viewer, compared with the view it shows ("" when nothing): the phase and
// whose turn it is, every hero sheet (scores, life, place, quests, the component
// carried), the viewer's hand and the quests with their map cards, the guard step,
// the map's cards and their ways through.
func dungeonReadingProblem(rd *reading, text string, v dungeoneer.View, viewer string, commands []string) string {
	w := rd.dungeoneer()
	m := w.read(text)
	// The cards the reader may play, discard, keep or use now are told with what they
	// do; the rest of the hand is named.
	playable := map[string]bool{}
	for _, c := range commands {
		if f := strings.Fields(c); len(f) >= 2 && slices.Contains([]string{"play", "discard", "keep", "use"}, f[0]) {
			playable[f[1]] = true
		}
	}
	turn := ""
	if v.Current != nil {
		turn = *v.Current
	}
	if m.phase != v.Phase || m.turn != turn {
		return fmt.Sprintf("phase %q and turn %q, want %q and %q", m.phase, m.turn, v.Phase, turn)
	}
	quests := []string{v.Global}
	for _, p := range v.Players {
		h, ok := m.heroes[p.Name]
		scores := map[string]int{"level": p.Level, "life": p.Life, "melee": p.Melee, "magic": p.Magic, "speed": p.Speed}
		switch {
		case !ok:
			return "no hero sheet of " + p.Name
		case !reflect.DeepEqual(h.stats, scores) || h.life != p.Life || h.x != p.X || h.y != p.Y:
			return fmt.Sprintf("the hero of %s: %+v, want %v at %d,%d", p.Name, h, scores, p.X, p.Y)
		}
		if p.Name != viewer {
			continue // the mail tells the reader's own sheet; the others' are on the whole board
		}
		if !slices.Equal(h.quests, p.Quests) || h.carrying != p.Carrying {
			return fmt.Sprintf("the quests of %s: %v carrying %q, want %v carrying %q", p.Name, h.quests, h.carrying, p.Quests, p.Carrying)
		}
		quests = append(quests, p.Quests...)
		for _, id := range p.Hand {
			info, _ := dungeoneer.Card(id)
			c := m.cards[id]
			switch {
			case !playable[id] && !strings.Contains(strings.Join(strings.Fields(text), " "), id+" "):
				return fmt.Sprintf("card %s in the hand is not named", id)
			case playable[id] && (c.kind != info.Kind || !reflect.DeepEqual(c.attacks, standardAttacks(info.Monster))):
				return fmt.Sprintf("card %s in the hand: %+v, want a %s with attacks %v", id, c, info.Kind, standardAttacks(info.Monster))
			}
		}
	}
	if v.Global != m.global {
		return fmt.Sprintf("the global quest %q, want %q", m.global, v.Global)
	}
	for _, q := range quests {
		info, _ := dungeoneer.Card(q)
		if c := m.cards[q]; c.kind != info.Kind || c.at != info.At || c.to != info.To {
			return fmt.Sprintf("quest %s: %+v, want a %s at %s → %q", q, c, info.Kind, info.At, info.To)
		}
	}
	if g := v.Guard; g != nil && (m.guard != g.Card || m.guarded != turn) {
		return fmt.Sprintf("the guard step: %s strikes %q, want %s strikes %s", m.guard, m.guarded, g.Card, turn)
	}
	if !strings.Contains(text, w.mark) {
		return "" // the dungeon is drawn when the reader builds or moves in it
	}
	cells := w.doors(text)
	for _, c := range v.Map {
		want := dungeonCell{c.ID, [4]bool{c.Doors[0] != "wall", c.Doors[1] != "wall", c.Doors[2] != "wall", c.Doors[3] != "wall"}}
		if got := cells[[2]int{c.X, c.Y}]; got != want {
			return fmt.Sprintf("the map at %d,%d: %v, want %v", c.X, c.Y, got, want)
		}
	}
	if len(cells) != len(v.Map) {
		return fmt.Sprintf("%d map cards read, the map has %d", len(cells), len(v.Map))
	}
	return ""
}

// standardAttacks are the scores a monster starts an attack with, by form (nil for
// no monster).
func standardAttacks(m *dungeoneer.MonsterInfo) map[string]int {
	if m == nil {
		return nil
	}
	out := map[string]int{}
	for _, s := range m.Stats {
		if s.Std {
			out[s.Form] = s.V
		}
	}
	return out
}

// dungeonSimMail is the state mail the service would send viewer in lang, and the
// view it shows: the commands of any moment listed apart, as the service does.
func dungeonSimMail(t *testing.T, set *templates.Set, st engine.State, viewer string, lang i18n.Lang, in func([]string) []string) (string, dungeoneer.View) {
	t.Helper()
	raw, err := json.Marshal(st.View(viewer))
	if err != nil {
		t.Fatal(err)
	}
	var view map[string]any
	var v dungeoneer.View
	if err := json.Unmarshal(raw, &view); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	anyTime := engine.AnyTime(st, viewer)
	legal := slices.DeleteFunc(st.Legal(viewer), func(c string) bool { return slices.Contains(anyTime, c) })
	text, _, err := set.Render("state", templates.State{Game: templates.Game{ID: "du-x", Kind: "dungeoneer"}, Player: viewer,
		ToAct: st.ToAct(), YourTurn: slices.Contains(st.ToAct(), viewer), View: view, Legal: in(legal), AnyTime: in(anyTime),
		ReplyTo: "turnmail+du-x@example.org", Lang: string(lang)})
	if err != nil {
		t.Fatal(err)
	}
	return text, v
}
