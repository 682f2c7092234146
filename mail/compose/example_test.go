package compose_test

import (
	"bytes"
	"fmt"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/turnmail/turnmail/mail/compose"
)

func ExampleBuild() {
	raw, err := compose.Build(compose.Mail{
		From:       compose.Address{Name: "Turnmail", Address: "turnmail@example.org"},
		ReplyTo:    compose.Address{Address: "turnmail+sw-7k3p.2.abcdefghijklmnop@example.org"},
		To:         []compose.Address{{Name: "Zoë", Address: "zoe@example.org"}},
		Subject:    "[sw-7k3p] Your turn, Zoë",
		MessageID:  "<sw-7k3p.12@example.org>",
		InReplyTo:  "<sw-7k3p.11@example.org>",
		References: []string{"<sw-7k3p.0@example.org>", "<sw-7k3p.11@example.org>"},
		Date:       time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		Headers:    map[string]string{"List-Id": "Small World <sw-7k3p.example.org>"},
		Text:       "It is your turn.\n\nconquer 12\n",
		HTML:       "<p>It is your turn.</p>",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		fmt.Println(err)
		return
	}
	subject, _ := r.Header.Subject()
	mt, _, _ := r.Header.ContentType()
	fmt.Println(subject)
	fmt.Println(mt)
	fmt.Println(r.Header.Get("Auto-Submitted"), r.Header.Get("X-Turnmail"))
	fmt.Println(r.Header.Get("References"))
	// Output:
	// [sw-7k3p] Your turn, Zoë
	// multipart/alternative
	// auto-generated 1
	// <sw-7k3p.0@example.org> <sw-7k3p.11@example.org>
}
