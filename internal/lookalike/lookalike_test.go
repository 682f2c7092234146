package lookalike

import "testing"

func TestSame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{"alice", "alice", true},
		{"alice", "ALICE", true},
		{"alice", "Alice", true},
		{"alice", "аlice", true},       // Cyrillic а
		{"ocean", "осеаn", true},       // Cyrillic о, с, е, а
		{"paxo", "рахо", true},         // Cyrillic р, а, х, о
		{"alice", "a1ice", true},       // digit one
		{"alice", "aIice", true},       // capital I folds to i
		{"bob", "b0b", true},           // zero
		{"bob", "ВОВ", true},           // Cyrillic capitals В, О
		{"alice", "ａｌｉｃｅ", true},       // fullwidth
		{"alice", "álice", true},       // accent
		{"alice", "a\u200blice", true}, // zero-width space
		{"alice", "al\u0301ice", true}, // combining accent
		{"modern", "modem", true},      // rn reads as m
		{"ann_b", "ann-b", true},       // separators
		{"turnmail", "turnmai1", true}, // the service's name
		{"turnmail", "TURNMAIL", true}, //
		{"host", "h0st", true},         //
		{"alice", "alicia", false},     //
		{"ann", "anna", false},         //
		{"bob", "rob", false},          //
		{"ann2", "ann", false},         // a digit of its own
		{"carol", "caro1e", false},     //
		{"dave", "eve", false},         //
		{"niccolò", "niccolo", true},   // Italian accent
		{"ſtraße", "strasse", true},    // long s and sharp s fold
		{"player1", "player2", false},  //
		{"\xff\xfe", "\xff\xfe", true}, // invalid UTF-8 is still comparable
		{"", "", true},                 //
	}
	for _, tt := range tests {
		if got := Same(tt.a, tt.b); got != tt.same {
			t.Errorf("Same(%q, %q) = %v, want %v (skeletons %q, %q)", tt.a, tt.b, got, tt.same, Skeleton(tt.a), Skeleton(tt.b))
		}
	}
}
