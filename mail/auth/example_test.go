package auth_test

import (
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/mail/auth"
)

func Example() {
	secret := []byte("server secret from TURNMAIL_SECRET")

	// Outgoing: the Reply-To of a mail to seat 2 of game sw-7k3p.
	replyTo := auth.ReplyAddress("turnmail", "example.org", auth.Token(secret, "sw-7k3p", 2))
	fmt.Println(replyTo)

	// Incoming: the player's reply was sent to that address, which a mail
	// system uppercased on the way.
	token, ok := auth.TokenFrom(strings.ToUpper(replyTo), "turnmail", "example.org")
	if !ok {
		fmt.Println("not a reply address")
		return
	}
	game, seat, err := auth.Parse(secret, token)
	fmt.Println(game, seat, err)
	// Output:
	// turnmail+sw-7k3p.2.z66fv3fpjj5pukoc@example.org
	// sw-7k3p 2 <nil>
}
