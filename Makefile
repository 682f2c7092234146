# turnmail — see README.md. Every target works on a fresh machine with Go installed.
GO        ?= go
PKGS      ?= ./...
BENCHTIME ?= 1s

.PHONY: run test race bench soak fuzz lint build real-mail-up real-mail-down

## run: start the daemon on its embedded defaults (IMAP+SMTP on loopback) with a demo game
run:
	$(GO) run ./cmd/turnmail serve --demo

## test: every unit, scenario, end-to-end test and short soak (under 10 minutes);
## the real-server integration test runs when TURNMAIL_REAL_IMAP is set (see .ci/run)
test:
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -timeout 15m $(PKGS)

## race: the tests under the race detector (CI runs it after make test; the load,
## crash, real-server, browser (mails and game pages), render-every-state and engine-text tests and the bots'
## Italian games and Dungeoneer simulations, which run no concurrency the English bot
## games do not, and are slow under the detector, are left to make test; with -short,
## the hostile-mail end-to-end tests and Dungeoneer's balance are left to it too, and
## the engines' self-play tests play fewer games: each engine package took 765–821 s of
## its 900 s timeout under the detector on the shared machine; the pictures' tests that
## draw every state and every game's pictures through the cache, in one goroutine, took
## 200 and 600 s and scene/draw hit the timeout, so they are left to make test too, as
## are the service's every-Italian-command and day-long auto-responder tests, one mail
## at a time through one service: 95 and 295 s under the detector)
race:
	$(GO) test -race -short -count=1 -timeout 30m -skip 'TestLoad|TestCrashSafety|TestRealServers|TestBrowserLayout|TestBrowser_pages|TestSelfPlayRenders|TestDungeoneerTextArguments|TestSmallWorldNamesAreTerms|TestEmpireTextArguments|TestBotsByMailItalian|TestDungeonBot_finishes|TestScene_everyState|TestPicture_cacheDrawsTheSamePixels|TestEveryCommand_italian|TestLimits_autoResponderStops' $(PKGS)

## bench: Go benchmarks plus the end-to-end load runs (a burst of moves; a restart on
## 10,000 running games); figures go to docs/benchmarks.md
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)
	TURNMAIL_LOAD=1 $(GO) test -count=1 -run 'TestLoad' -v -timeout 20m ./e2e/

## soak: long self-play runs of every engine (many seeded games), every state rendered
## as mail, states restored from snapshots and kept by the service checked against
## full replays over long games (TestSelfPlaySnapshots, TestSelfPlayFoldFromSnapshots,
## TestSelfPlayKeptStates), then bots playing whole games by mail with 3 to 5 players
## (and through Dovecot + Postfix when TURNMAIL_REAL_* is set, see .ci/run), and the
## hostile flood of 20 mails (6 in make test)
soak:
	TURNMAIL_SOAK=1 $(GO) test -count=1 -run 'SelfPlay' -timeout 60m -v ./engine/... ./service/
	TURNMAIL_SOAK=1 $(GO) test -count=1 -run 'TestBotsByMail|TestRealServersBots' -timeout 60m -v ./e2e/

## fuzz: fuzz the mail parse path for FUZZTIME (default 2m)
FUZZTIME ?= 2m
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./mail/parse/

## lint: formatting and vet
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet $(PKGS)

build:
	$(GO) build -o bin/turnmail ./cmd/turnmail

## real-mail-up / real-mail-down: Dovecot + Postfix on loopback for the integration test
real-mail-up:
	IMAP_PORT=11143 SMTP_PORT=12525 LMTP_PORT=12424 scripts/real-mail-servers start var/real-mail
real-mail-down:
	scripts/real-mail-servers stop var/real-mail
