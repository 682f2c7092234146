package parse

import (
	"strings"
	"testing"
)

// replyCases are plain-text bodies in the shapes real clients write, with the reply
// they hold. "{cmds}" stands for a three-line turn.
var replyCases = []struct {
	name, body, want string
}{
	// Attributions ("On … wrote:") in the clients' languages.
	{"gmail en", "{cmds}\n\nOn Mon, Jan 6, 2025 at 11:00 AM turnmail <game@t.example> wrote:\n\n> your turn\n", "{cmds}"},
	{"gmail en wrapped", "{cmds}\n\nOn Mon, Jan 6, 2025 at 11:00 AM turnmail <\ngame@t.example> wrote:\n\n> your turn\n", "{cmds}"},
	{"gmail en three lines", "{cmds}\n\nOn Mon, Jan 6, 2025 at 11:00 AM, turnmail\n<game@t.example>\nwrote:\n> your turn\n", "{cmds}"},
	{"gmail it", "{cmds}\n\nIl giorno lun 6 gen 2025 alle ore 11:00 turnmail <game@t.example> ha\nscritto:\n\n> tocca a te\n", "{cmds}"},
	{"thunderbird it", "{cmds}\n\nIl 06/01/2025 11:00, turnmail ha scritto:\n> tocca a te\n", "{cmds}"},
	{"apple it", "{cmds}\n\n> Il giorno 6 gen 2025, alle ore 11:00, turnmail <game@t.example> ha scritto:\n> \n> tocca a te\n", "{cmds}"},
	{"gmail de", "{cmds}\n\nAm Mo., 6. Jan. 2025 um 11:00 Uhr schrieb turnmail <game@t.example>:\n\n> Du bist dran\n", "{cmds}"},
	{"thunderbird de", "{cmds}\n\nAm 06.01.25 um 11:00 schrieb turnmail:\n> Du bist dran\n", "{cmds}"},
	{"gmail fr", "{cmds}\n\nLe lun. 6 janv. 2025 à 11:00, turnmail <game@t.example> a écrit :\n\n> À toi\n", "{cmds}"},
	{"gmail es", "{cmds}\n\nEl lun, 6 ene 2025 a las 11:00, turnmail (<game@t.example>) escribió:\n\n> Tu turno\n", "{cmds}"},
	{"gmail pt", "{cmds}\n\nEm seg., 6 de jan. de 2025 às 11:00, turnmail <game@t.example> escreveu:\n\n> Sua vez\n", "{cmds}"},
	{"gmail nl", "{cmds}\n\nOp ma 6 jan. 2025 om 11:00 schreef turnmail <game@t.example>:\n\n> Jouw beurt\n", "{cmds}"},
	{"gmail sv", "{cmds}\n\nDen mån 6 jan. 2025 kl 11:00 skrev turnmail <game@t.example>:\n\n> Din tur\n", "{cmds}"},
	{"gmail da", "{cmds}\n\nman. 6. jan. 2025 kl. 11.00 skrev turnmail <game@t.example>:\n\n> Din tur\n", "{cmds}"},
	{"gmail fi", "{cmds}\n\nma 6. tammik. 2025 klo 11.00 turnmail <game@t.example> kirjoitti:\n\n> Sinun vuorosi\n", "{cmds}"},
	{"gmail ru", "{cmds}\n\nпн, 6 янв. 2025 г. в 11:00, turnmail <game@t.example>:\n\n> Ваш ход\n", "{cmds}"},
	{"thunderbird ru", "{cmds}\n\n06.01.2025 11:00, turnmail пишет:\n> Ваш ход\n", "{cmds}"},
	{"gmail pl", "{cmds}\n\npon., 6 sty 2025 o 11:00 turnmail <game@t.example> napisał(a):\n\n> Twoja kolej\n", "{cmds}"},
	{"zoho", "{cmds}\n\n---- On Mon, 06 Jan 2025 11:00:00 +0100 turnmail <game@t.example> wrote ----\n\nyour turn\n", "{cmds}"},

	// Outlook and webmail header blocks, with and without separators.
	{"outlook en", "{cmds}\n\n-----Original Message-----\nFrom: turnmail <game@t.example>\nSent: Monday, January 6, 2025 11:00 AM\nTo: Alice\nSubject: game 7\n\nyour turn\n", "{cmds}"},
	{"outlook en no separator", "{cmds}\n\nFrom: turnmail [mailto:game@t.example]\nSent: Monday, January 6, 2025 11:00 AM\nTo: Alice\nSubject: game 7\n", "{cmds}"},
	{"outlook exchange no address", "{cmds}\n\nFrom: Smith, John\nSent: Monday, January 6, 2025 11:00 AM\nTo: Doe, Jane\nSubject: game 7\n", "{cmds}"},
	{"outlook it", "{cmds}\n\n________________________________\nDa: turnmail <game@t.example>\nInviato: lunedì 6 gennaio 2025 11:00\nA: Mario Rossi\nOggetto: partita 7\n", "{cmds}"},
	{"outlook it messaggio originale", "{cmds}\n\n-----Messaggio originale-----\nDa: turnmail <game@t.example>\nInviato: lunedì 6 gennaio 2025 11:00\n", "{cmds}"},
	{"outlook de", "{cmds}\n\nVon: turnmail <game@t.example>\nGesendet: Montag, 6. Januar 2025 11:00\nAn: Jürgen\nBetreff: Spiel 7\n", "{cmds}"},
	{"outlook fr", "{cmds}\n\nDe : turnmail <game@t.example>\nEnvoyé : lundi 6 janvier 2025 11:00\nÀ : Luc\nObjet : partie 7\n", "{cmds}"},
	{"outlook es", "{cmds}\n\nDe: turnmail <game@t.example>\nEnviado: lunes, 6 de enero de 2025 11:00\nPara: Ana\nAsunto: partida 7\n", "{cmds}"},
	{"outlook bold", "{cmds}\n\n*From:* turnmail [mailto:game@t.example]\n*Sent:* Monday, January 6, 2025 11:00 AM\n*To:* Alice\n", "{cmds}"},
	{"gmail forward", "{cmds}\n\n---------- Forwarded message ---------\nFrom: turnmail <game@t.example>\nDate: Mon, Jan 6, 2025 at 11:00 AM\n", "{cmds}"},
	{"apple forward", "{cmds}\n\nBegin forwarded message:\n\nFrom: turnmail <game@t.example>\n", "{cmds}"},
	{"italian forward", "{cmds}\n\nInizio messaggio inoltrato:\n\nDa: turnmail <game@t.example>\n", "{cmds}"},

	// Signatures and mobile footers.
	{"sig delimiter", "{cmds}\n\n-- \nAlice\nhttps://alice.example\n", "{cmds}"},
	{"sent from iphone", "{cmds}\n\nSent from my iPhone\n", "{cmds}"},
	{"sent from mail for windows", "{cmds}\n\nSent from Mail for Windows\n", "{cmds}"},
	{"yahoo", "{cmds}\n\nSent from Yahoo Mail for iPhone\n", "{cmds}"},
	{"outlook ios", "{cmds}\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n", "{cmds}"},
	{"inviato da iphone", "{cmds}\n\nInviato da iPhone\n", "{cmds}"},
	{"inviato dal mio", "{cmds}\n\nInviato dal mio smartphone Samsung Galaxy.\n", "{cmds}"},
	{"gesendet von", "{cmds}\n\nGesendet von meinem iPhone\n", "{cmds}"},
	{"envoyé de", "{cmds}\n\nEnvoyé de mon iPhone\n", "{cmds}"},
	{"enviado desde", "{cmds}\n\nEnviado desde mi iPhone\n", "{cmds}"},
	{"verzonden vanaf", "{cmds}\n\nVerzonden vanaf mijn iPhone\n", "{cmds}"},
	{"sendt fra", "{cmds}\n\nSendt fra min iPhone\n", "{cmds}"},
	{"regards", "{cmds}\n\nBest regards,\nAlice\n", "{cmds}"},
	{"cordiali saluti", "{cmds}\n\nCordiali saluti\nMario\n", "{cmds}"},
	{"mit freundlichen", "{cmds}\n\nMit freundlichen Grüßen\nJürgen\n", "{cmds}"},
	{"dash sign-off", "{cmds}\n-Alice\n", "{cmds}"},

	{"pgp clearsigned", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n{cmds}\n- -- \nAlice\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n", "{cmds}"},
	{"pgp clearsigned no sig", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n{cmds}\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n", "{cmds}"},

	// The end line.
	{"end", "{cmds}\nend\nconquer 99\n", "{cmds}"},
	{"fine (Italian end)", "{cmds}\nFine\nconquer 99\n", "{cmds}"},
	{"fine within a line is read", "{cmds}\nfine turno\n", "{cmds}\nfine turno"},
	{"END padded", "{cmds}\n   END \t\nconquer 99\n", "{cmds}"},
	{"end first", "end\n{cmds}\n", ""},

	// Comments and interior blank lines are kept.
	{"comments kept", "# my turn\nconquer 1 # hills\n\n\nconquer 2\n", "# my turn\nconquer 1 # hills\n\n\nconquer 2"},
	{"crlf and trailing space", "conquer 1  \r\nconquer 2\t\r\n\r\n", "conquer 1\nconquer 2"},
	{"leading blank lines", "\n\n\nconquer 1\n", "conquer 1"},

	// Bottom posting and interleaved replies.
	{"bottom posted", "On Mon, Jan 6, 2025 at 11:00 AM turnmail <game@t.example> wrote:\n> your turn\n> legal: conquer 1\n\n{cmds}\n", "{cmds}"},
	{"interleaved", "turnmail wrote on 06/01/2025 11:00:\n> Which region?\n\nconquer 4\n\n> And then?\n\ndone\n\n-- \nAlice\n", "conquer 4\n\ndone"},
	{"bottom posted then history", "> your turn\n\nconquer 1\n\nFrom: turnmail <game@t.example>\nSent: Monday, January 6, 2025 11:00 AM\n", "conquer 1"},
	{"bare intro bottom", "turnmail wrote:\n> your turn\n\n{cmds}\n", "{cmds}"},
	{"bare intro top", "{cmds}\n\nturnmail wrote:\n> your turn\n", "{cmds}"},
	{"mutt", "* turnmail <game@t.example> [2025-01-06 11:00]:\n> your turn\n\n{cmds}\n", "{cmds}"},
	{"intro needs a quote", "Alice wrote:\nconquer 1\n", "Alice wrote:\nconquer 1"},
	{"only quote", "> your turn\n> conquer 1\n", ""},

	// Prose that only looks like history or a signature.
	{"on false positives", "On turn 3 I will attack.\nOn the other hand, conquer 2\n", "On turn 3 I will attack.\nOn the other hand, conquer 2"},
	{"colon lines", "Note: region 3 is mine\nFrom: region 3\nTo: region 5\n", "Note: region 3 is mine\nFrom: region 3\nTo: region 5"},
	{"sent from prose", "Sent from a train, sorry for typos\nconquer 2\n", "Sent from a train, sorry for typos\nconquer 2"},
	{"double dash in text", "conquer 2 -- the hills\n-- then the river\n", "conquer 2 -- the hills\n-- then the river"},
	{"bullet", "- conquer 2\n- conquer 3\n", "- conquer 2\n- conquer 3"},
	{"email in text", "ally bob@example.org\nconquer 3\n", "ally bob@example.org\nconquer 3"},
}

const cmds = "conquer 12\nconquer 7 roll\nredeploy 12=3 7=1"

func TestExtractReply(t *testing.T) {
	for _, c := range replyCases {
		t.Run(c.name, func(t *testing.T) {
			body := strings.ReplaceAll(c.body, "{cmds}", cmds)
			want := strings.ReplaceAll(c.want, "{cmds}", cmds)
			if got := ExtractReply(body); got != want {
				t.Errorf("ExtractReply(%q) =\n%s\nwant\n%s", body, got, want)
			}
		})
	}
}

func TestCommandLines(t *testing.T) {
	reply := "# turn 12\nconquer 1   # the hills\n\n  conquer\u00a02  \n#\nredeploy 1=2 # done\n"
	want := []Line{{2, "conquer 1"}, {4, "conquer 2"}, {6, "redeploy 1=2"}}
	got := CommandLines(reply)
	eq(t, "CommandLines", got, want)
	eq(t, "FormatCommands", FormatCommands(got), "2: conquer 1\n4: conquer 2\n6: redeploy 1=2\n")
	eq(t, "FormatCommands(nil)", FormatCommands(nil), "")
}
