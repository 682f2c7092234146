package templates

import (
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	set, _ := Load()
	f, _ := os.Create("/tmp/it_dump.txt")
	defer f.Close()
	for _, s := range italianSamples() {
		text, _, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatal(err)
		}
		subject, _ := set.Subject(s.kind, s.data)
		f.WriteString("=== " + s.name + "\nSubject: " + subject + "\n" + text + "\n")
	}
}
