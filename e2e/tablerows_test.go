package e2e

import (
	"reflect"
	"testing"

	"github.com/turnmail/turnmail/i18n"
)

// TestTableRows: a region row that a mail wraps is read whole again — Empire's
// continues under its second column, Small World's under its text — and rows marked
// as changed are rows.
func TestTableRows(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{
			"    5   armies ann×4 ben×4 — land 3, 4; sea 22",
			"    6   armies alice×8 bob×10 carol×5, cities bob×2 carol×1, controlled by bob —",
			"        land 7; sea 2, 11",
			"    7   — land 6; sea 4",
			"",
			"    8   — land 9; sea 11",
		}, []string{
			"    5   armies ann×4 ben×4 — land 3, 4; sea 22",
			"    6   armies alice×8 bob×10 carol×5, cities bob×2 carol×1, controlled by bob — land 7; sea 2, 11",
			"    7   — land 6; sea 4",
		}},
		{[]string{
			" * 4 farmland  — alice Ratmen ×2 [encampment×2, fortress]",
			"   2 hill      — empty",
			"   8 mushroom forest (monster) — ann Flames ×1 [Altar of Souls]; next to 1, 2,",
			"     7, 9, 12",
			"  10 mushroom forest — ben Iron Dwarves ×3 [Great Ancient, mushroom armour×2];",
			"     next to 3, 4, 11, 14, 15",
		}, []string{
			" * 4 farmland  — alice Ratmen ×2 [encampment×2, fortress]",
			"   2 hill      — empty",
			"   8 mushroom forest (monster) — ann Flames ×1 [Altar of Souls]; next to 1, 2, 7, 9, 12",
			"  10 mushroom forest — ben Iron Dwarves ×3 [Great Ancient, mushroom armour×2]; next to 3, 4, 11, 14, 15",
		}},
	}
	for _, tt := range tests {
		if got := tableRows(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tableRows(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
	rd := newReading(t, i18n.English)
	r := parseRegions(rd, "\n"+rd.emRegions()+"\n"+
		"  6  armies alice×8 bob×10, controlled by bob —\n     land 7; sea 2, 11\n", "bob")
	if got := r["6"]; got.mine != 10 || !reflect.DeepEqual(got.land, []string{"7"}) {
		t.Errorf("a wrapped region row reads as %+v", got)
	}
	// A Small World reader's own regions, their line broken softly.
	r = parseRegions(rd, "Game turn 3.\n\n"+rd.swRegions()+"4* ×2 [encampment×2, fortress], 7 ×1, \n12 ×13.\nChanged since your last mail: 3 empty.\n", "ann")
	if want := map[string]region{"4": {owner: "ann", tokens: 2}, "7": {owner: "ann", tokens: 1}, "12": {owner: "ann", tokens: 13}}; !reflect.DeepEqual(r, want) {
		t.Errorf("a Small World reader's regions read as %+v, want %+v", r, want)
	}
}
