// Package config holds turnmail's configuration: defaults, a YAML file, TURNMAIL_*
// environment variables and command-line flags, merged by viper.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/viper"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/mailnet"
)

// Config is the complete configuration of a turnmail process.
type Config struct {
	// Database is the SQLite file holding games, events, inbox, outbox (and, in
	// embedded mode, the mailboxes).
	Database string `mapstructure:"database"`
	// Secret keys the reply-address tokens. Empty means: generate one on first start
	// and keep it in the database.
	Secret string `mapstructure:"secret"`
	// Address is the service address players write to, e.g. turnmail@example.org.
	// Reply-To addresses are Address's local part plus "+token".
	Address string `mapstructure:"address"`
	// Name is the display name on turnmail's mails.
	Name string `mapstructure:"name"`
	// Language is what the lobby answers in until a sender's language is known, and
	// the language of games opened without lang=: en or it.
	Language string `mapstructure:"language"`

	IMAP     IMAP     `mapstructure:"imap"`
	SMTP     SMTP     `mapstructure:"smtp"`
	Embedded Embedded `mapstructure:"embedded"`
	Limits   Limits   `mapstructure:"limits"`
	Web      Web      `mapstructure:"web"`
	// HTTPAddr serves /healthz and /metrics when set. When it is web.addr, the
	// pages' listener serves them too.
	HTTPAddr string `mapstructure:"http_addr"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `mapstructure:"log_level"`
}

// IMAP configures the watched mailbox. An empty Addr selects the embedded servers.
type IMAP struct {
	Addr     string `mapstructure:"addr"`
	Security string `mapstructure:"security"` // tls, starttls or plain
	Username string `mapstructure:"username"`
	Password string `mapstructure:"password"`
	Mailbox  string `mapstructure:"mailbox"`
	// Processed and Rejected are the folders handled mail is moved to; when both are
	// empty, handled mail is flagged \Seen and left in place.
	Processed string `mapstructure:"processed"`
	Rejected  string `mapstructure:"rejected"`
	// Failed is the folder for quarantined mail: mail whose processing failed
	// (empty: flagged \Seen like the others).
	Failed       string        `mapstructure:"failed"`
	PollInterval time.Duration `mapstructure:"poll_interval"`
}

// SMTP configures outgoing mail. An empty Addr selects the embedded servers.
type SMTP struct {
	Addr     string `mapstructure:"addr"`
	Security string `mapstructure:"security"` // tls, starttls or plain
	Username string `mapstructure:"username"`
	Password string `mapstructure:"password"`
	// MaxAttempts is how often a mail is tried before it is marked failed.
	MaxAttempts int `mapstructure:"max_attempts"`
	// Connections is how many SMTP connections deliver in parallel.
	Connections int `mapstructure:"connections"`
	// VERP sends each mail with its own envelope sender,
	// local+bounce-<id>-<mac>@domain, so that a bounce proves which mail it
	// returns. Turn it off for a submission server that refuses a +detail
	// sender; bounces are then proven by Message-ID alone.
	VERP bool `mapstructure:"verp"`
}

// Embedded configures the in-process IMAP and SMTP servers used when no mail server
// is configured.
type Embedded struct {
	Domain string `mapstructure:"domain"`
	// Password, when set, is the password of every player mailbox (a demo
	// setting); when empty, each mailbox has its own (turnmail mailbox password).
	// The service mailbox always has its own random password, kept in the database.
	Password string `mapstructure:"password"`
	// IMAPAddr and SMTPAddr are where the servers listen: loopback only, since
	// they speak plain text.
	IMAPAddr string `mapstructure:"imap_addr"`
	SMTPAddr string `mapstructure:"smtp_addr"`

	// What a client may hold and store (see mailserver.Limits): connections of
	// each server in total, per client address (every loopback address counts as
	// one) and per logged-in mailbox.
	MaxConnections           int `mapstructure:"max_connections"`
	MaxConnectionsPerAddress int `mapstructure:"max_connections_per_address"`
	MaxConnectionsPerMailbox int `mapstructure:"max_connections_per_mailbox"`
	// LoginTimeout closes a connection that has not logged in (an SMTP session
	// without AUTH has that long in all); the idle timeouts, one whose client
	// sent nothing.
	LoginTimeout    time.Duration `mapstructure:"login_timeout"`
	IMAPIdleTimeout time.Duration `mapstructure:"imap_idle_timeout"`
	SMTPIdleTimeout time.Duration `mapstructure:"smtp_idle_timeout"`
	// LoginFailures failed logins close a connection; a client address that
	// failed recently waits FailureDelay before each login, doubled per failure up
	// to MaxFailureDelay.
	LoginFailures   int           `mapstructure:"login_failures"`
	FailureDelay    time.Duration `mapstructure:"failure_delay"`
	MaxFailureDelay time.Duration `mapstructure:"max_failure_delay"`
	// MessagesPerHour is what one sender (a logged-in mailbox, or a client
	// address without login) may deliver in an hour, counted per recipient; the
	// service is not limited.
	MessagesPerHour int `mapstructure:"messages_per_hour"`
	// Quotas: per mailbox and of all mailboxes together; how many mailboxes, and
	// folders in one.
	MailboxBytes    int64 `mapstructure:"mailbox_bytes"`
	MailboxMessages int64 `mapstructure:"mailbox_messages"`
	TotalBytes      int64 `mapstructure:"total_bytes"`
	TotalMessages   int64 `mapstructure:"total_messages"`
	MaxMailboxes    int   `mapstructure:"max_mailboxes"`
	MaxFolders      int   `mapstructure:"max_folders"`
}

// Web configures the games' web pages (issue 25).
type Web struct {
	// Addr is where the pages are served: host:port, or "off" (or empty) for no
	// pages. The default serves them on loopback.
	Addr string `mapstructure:"addr"`
	// BaseURL is the public address of the pages, which mails link to
	// (https://games.example.org/turnmail/). Empty: in embedded mode, the pages'
	// own address on loopback; with a real mail server, no links (the pages are then
	// for whoever can reach Addr).
	BaseURL string `mapstructure:"base_url"`
}

// WebOff is the value of web.addr that turns the pages off.
const WebOff = "off"

// WebEnabled reports whether the pages are served.
func (c *Config) WebEnabled() bool { return c.Web.Addr != "" && c.Web.Addr != WebOff }

// PageBaseURL returns the base URL the mails link the pages with, ending in "/", for
// pages served at listen (the address the pages' listener got: web.addr with its
// port filled in); "" when mails carry no links: the pages are off, or no base URL is
// set and the mail server is a real one.
func (c *Config) PageBaseURL(listen string) string {
	switch {
	case !c.WebEnabled():
		return ""
	case c.Web.BaseURL != "":
		return strings.TrimRight(c.Web.BaseURL, "/") + "/"
	case c.EmbeddedMode() && listen != "":
		return "http://" + listen + "/"
	}
	return ""
}

// Limits bound what one sender or one mail can cost.
type Limits struct {
	// MaxMessageBytes is the largest incoming mail that is interpreted.
	MaxMessageBytes int64 `mapstructure:"max_message_bytes"`
	// RepliesPerHour caps the mails turnmail sends to one address in reply to its mail.
	RepliesPerHour int `mapstructure:"replies_per_hour"`
	// RepliesPerDay caps them in a day.
	RepliesPerDay int `mapstructure:"replies_per_day"`
	// IdleRepliesPerHour is the loop guard: replies to one address whose mails
	// changed nothing, in an hour since the last reply to a mail that did.
	IdleRepliesPerHour int `mapstructure:"idle_replies_per_hour"`
	// IdleRepliesPerDay caps the replies to mails that changed nothing, to one
	// address in a day (what a forged From can make us send a victim).
	IdleRepliesPerDay int `mapstructure:"idle_replies_per_day"`
	// NotificationsPerHour is the loop guard of the mails to one participant caused
	// by someone else's action (state mails after another player's move).
	NotificationsPerHour int `mapstructure:"notifications_per_hour"`
	// ContactsPerAddressPerDay caps the mails to one third party (invitations) a day.
	ContactsPerAddressPerDay int `mapstructure:"contacts_per_address_per_day"`
	// FirstContactsPerHostPerDay caps the mails one host's commands send to
	// addresses that never wrote to turnmail, in a day.
	FirstContactsPerHostPerDay int `mapstructure:"first_contacts_per_host_per_day"`
	// FirstContactsPerDay caps all mail to addresses that never wrote to turnmail,
	// in a day.
	FirstContactsPerDay int `mapstructure:"first_contacts_per_day"`
	// ChatsPerHour caps the messages (say) one player has relayed in an hour,
	// counted per recipient.
	ChatsPerHour int `mapstructure:"chats_per_hour"`
	// MaxCommandLines is the most command lines read from one mail.
	MaxCommandLines int `mapstructure:"max_command_lines"`
	// MaxMailBytes is the largest mail turnmail sends.
	MaxMailBytes int64 `mapstructure:"max_mail_bytes"`
}

// Defaults are the embedded defaults: a working mail loop on loopback.
var Defaults = map[string]any{
	"database":                               "var/turnmail.db",
	"secret":                                 "",
	"address":                                "turnmail@turnmail.localhost",
	"language":                               "en",
	"name":                                   "turnmail",
	"imap.addr":                              "",
	"imap.security":                          "tls",
	"imap.username":                          "",
	"imap.password":                          "",
	"imap.mailbox":                           "INBOX",
	"imap.processed":                         "Processed",
	"imap.rejected":                          "Rejected",
	"imap.failed":                            "Failed",
	"imap.poll_interval":                     "30s",
	"smtp.addr":                              "",
	"smtp.security":                          "starttls",
	"smtp.username":                          "",
	"smtp.password":                          "",
	"smtp.max_attempts":                      40,
	"smtp.connections":                       4,
	"smtp.verp":                              true,
	"embedded.domain":                        "turnmail.localhost",
	"embedded.password":                      "",
	"embedded.imap_addr":                     "127.0.0.1:1143",
	"embedded.smtp_addr":                     "127.0.0.1:2525",
	"embedded.max_connections":               100,
	"embedded.max_connections_per_address":   50,
	"embedded.max_connections_per_mailbox":   10,
	"embedded.login_timeout":                 "30s",
	"embedded.imap_idle_timeout":             "30m",
	"embedded.smtp_idle_timeout":             "5m",
	"embedded.login_failures":                3,
	"embedded.failure_delay":                 "250ms",
	"embedded.max_failure_delay":             "8s",
	"embedded.messages_per_hour":             120,
	"embedded.mailbox_bytes":                 256 << 20,
	"embedded.mailbox_messages":              20000,
	"embedded.total_bytes":                   2 << 30,
	"embedded.total_messages":                200000,
	"embedded.max_mailboxes":                 10000,
	"embedded.max_folders":                   100,
	"limits.max_message_bytes":               1 << 20,
	"limits.replies_per_hour":                30,
	"limits.replies_per_day":                 200,
	"limits.idle_replies_per_hour":           5,
	"limits.idle_replies_per_day":            20,
	"limits.notifications_per_hour":          120,
	"limits.contacts_per_address_per_day":    3,
	"limits.first_contacts_per_host_per_day": 20,
	"limits.first_contacts_per_day":          100,
	"limits.chats_per_hour":                  60,
	"limits.max_command_lines":               100,
	"limits.max_mail_bytes":                  512 << 10,
	"web.addr":                               "127.0.0.1:8025",
	"web.base_url":                           "",
	"http_addr":                              "",
	"log_level":                              "info",
}

// NewViper returns a viper instance with the defaults set and TURNMAIL_* environment
// variables bound (imap.password ↔ TURNMAIL_IMAP_PASSWORD).
func NewViper() *viper.Viper {
	v := viper.New()
	for k, val := range Defaults {
		v.SetDefault(k, val)
	}
	v.SetEnvPrefix("TURNMAIL")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	return v
}

// Load reads file (when not empty) into v and decodes the result. A key of the file
// or a TURNMAIL_* environment variable that is no configuration key is an error
// naming it and the nearest known key.
func Load(v *viper.Viper, file string) (*Config, error) {
	if file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return nil, fmt.Errorf("read config %s: %w", file, err)
		}
	}
	unknown := unknownKeys(v, file, os.Environ())
	var c Config
	if err := v.Unmarshal(&c); err != nil {
		return nil, errors.Join(append(unknown, fmt.Errorf("decode config: %w", err))...)
	}
	if err := errors.Join(append(unknown, c.Validate())...); err != nil {
		return nil, err
	}
	return &c, nil
}

// plainOffLoopback reports every plain-text connection the configuration would make
// beyond loopback: embedded servers listening there (passwords in clear text), or
// mail clients with security plain to a non-loopback host (which they refuse).
func (c *Config) plainOffLoopback() []error {
	type conn struct{ key, addr, security string }
	var conns []conn
	if c.EmbeddedMode() {
		conns = []conn{{"embedded.imap_addr", c.Embedded.IMAPAddr, "plain"}, {"embedded.smtp_addr", c.Embedded.SMTPAddr, "plain"}}
	} else {
		conns = []conn{{"imap.addr", c.IMAP.Addr, c.IMAP.Security}, {"smtp.addr", c.SMTP.Addr, c.SMTP.Security}}
	}
	var errs []error
	for _, x := range conns {
		host, _, err := net.SplitHostPort(x.addr)
		if err != nil || x.security != mailnet.SecurityPlain || mailnet.IsLoopbackHost(host) {
			continue // a bad address is reported on its own
		}
		if strings.HasPrefix(x.key, "embedded.") {
			errs = append(errs, fmt.Errorf("%s: %q is not a loopback address; the embedded servers speak plain text only (use 127.0.0.1 or localhost, or a real mail server with TLS)", x.key, x.addr))
		} else {
			errs = append(errs, fmt.Errorf("%s: security plain to non-loopback host %q would send the password in clear text; use tls or starttls", x.key, host))
		}
	}
	return errs
}

// EmbeddedMode reports whether the in-process mail servers are used.
func (c *Config) EmbeddedMode() bool { return c.IMAP.Addr == "" && c.SMTP.Addr == "" }

// Validate reports every problem in the configuration at once.
func (c *Config) Validate() error {
	var errs []error
	if c.Database == "" {
		errs = append(errs, errors.New("database: empty"))
	}
	if _, ok := i18n.ParseLang(c.Language); !ok {
		errs = append(errs, fmt.Errorf("language: %q is not en or it", c.Language))
	}
	if a, err := mail.ParseAddress(c.Address); err != nil || a.Address != c.Address || !strings.Contains(c.Address, "@") {
		errs = append(errs, fmt.Errorf("address: %q is not a plain mail address like turnmail@example.org", c.Address))
	} else if strings.Contains(c.Address[:strings.IndexByte(c.Address, '@')], "+") {
		errs = append(errs, fmt.Errorf("address: %q must not contain '+' (turnmail adds +token itself)", c.Address))
	}
	if (c.IMAP.Addr == "") != (c.SMTP.Addr == "") {
		errs = append(errs, errors.New("imap.addr and smtp.addr: set both (a real mail server) or neither (embedded servers)"))
	}
	for _, s := range []struct{ key, val string }{{"imap.security", c.IMAP.Security}, {"smtp.security", c.SMTP.Security}} {
		switch s.val {
		case "tls", "starttls", "plain":
		default:
			errs = append(errs, fmt.Errorf("%s: %q, want tls, starttls or plain", s.key, s.val))
		}
	}
	for _, a := range []struct{ key, val string }{{"imap.addr", c.IMAP.Addr}, {"smtp.addr", c.SMTP.Addr}, {"embedded.imap_addr", c.Embedded.IMAPAddr}, {"embedded.smtp_addr", c.Embedded.SMTPAddr}, {"http_addr", c.HTTPAddr}} {
		if a.val == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(a.val); err != nil {
			errs = append(errs, fmt.Errorf("%s: %q is not host:port", a.key, a.val))
		}
	}
	if c.WebEnabled() {
		if _, _, err := net.SplitHostPort(c.Web.Addr); err != nil {
			errs = append(errs, fmt.Errorf("web.addr: %q is not host:port or %s", c.Web.Addr, WebOff))
		}
	}
	if c.Web.BaseURL != "" {
		if u, err := url.Parse(c.Web.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			errs = append(errs, fmt.Errorf("web.base_url: %q is not an http or https address like https://games.example.org/", c.Web.BaseURL))
		}
	}
	errs = append(errs, c.plainOffLoopback()...)
	if !c.EmbeddedMode() && c.IMAP.Username == "" {
		errs = append(errs, errors.New("imap.username: empty"))
	}
	if c.EmbeddedMode() && !strings.HasSuffix(c.Address, "@"+c.Embedded.Domain) {
		errs = append(errs, fmt.Errorf("address: %q must be at embedded.domain %q in embedded mode", c.Address, c.Embedded.Domain))
	}
	if c.IMAP.PollInterval <= 0 {
		errs = append(errs, errors.New("imap.poll_interval: must be positive"))
	}
	if c.Limits.MaxMessageBytes < 1024 {
		errs = append(errs, errors.New("limits.max_message_bytes: at least 1024"))
	}
	if c.SMTP.Connections < 1 || c.SMTP.Connections > 32 {
		errs = append(errs, errors.New("smtp.connections: 1 to 32"))
	}
	for key, v := range map[string]int{
		"replies_per_hour": c.Limits.RepliesPerHour, "replies_per_day": c.Limits.RepliesPerDay,
		"idle_replies_per_hour": c.Limits.IdleRepliesPerHour, "idle_replies_per_day": c.Limits.IdleRepliesPerDay,
		"notifications_per_hour": c.Limits.NotificationsPerHour, "contacts_per_address_per_day": c.Limits.ContactsPerAddressPerDay,
		"first_contacts_per_host_per_day": c.Limits.FirstContactsPerHostPerDay, "first_contacts_per_day": c.Limits.FirstContactsPerDay,
		"chats_per_hour": c.Limits.ChatsPerHour,
	} {
		if v < 1 {
			errs = append(errs, fmt.Errorf("limits.%s: at least 1", key))
		}
	}
	errs = append(errs, c.Embedded.validate(c.SMTP.Connections)...)
	if c.Limits.MaxCommandLines < 1 || c.Limits.MaxCommandLines > 10000 {
		errs = append(errs, errors.New("limits.max_command_lines: 1 to 10000"))
	}
	if c.Limits.MaxMailBytes < 64<<10 {
		errs = append(errs, errors.New("limits.max_mail_bytes: at least 65536"))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log_level: %q, want debug, info, warn or error", c.LogLevel))
	}
	return errors.Join(errs...)
}

// validate reports every embedded limit out of range; the service's own SMTP
// connections (smtpConnections) must fit in one mailbox's.
func (e *Embedded) validate(smtpConnections int) []error {
	var errs []error
	for key, v := range map[string]int64{
		"max_connections": int64(e.MaxConnections), "max_connections_per_address": int64(e.MaxConnectionsPerAddress),
		"max_connections_per_mailbox": int64(e.MaxConnectionsPerMailbox), "login_failures": int64(e.LoginFailures),
		"messages_per_hour": int64(e.MessagesPerHour), "mailbox_bytes": e.MailboxBytes, "mailbox_messages": e.MailboxMessages,
		"total_bytes": e.TotalBytes, "total_messages": e.TotalMessages, "max_mailboxes": int64(e.MaxMailboxes), "max_folders": int64(e.MaxFolders),
		"login_timeout": int64(e.LoginTimeout), "imap_idle_timeout": int64(e.IMAPIdleTimeout), "smtp_idle_timeout": int64(e.SMTPIdleTimeout),
		"failure_delay": int64(e.FailureDelay), "max_failure_delay": int64(e.MaxFailureDelay),
	} {
		if v < 1 {
			errs = append(errs, fmt.Errorf("embedded.%s: must be positive", key))
		}
	}
	if e.MaxConnectionsPerMailbox <= smtpConnections {
		errs = append(errs, fmt.Errorf("embedded.max_connections_per_mailbox: %d leaves the service no room beside its %d SMTP connections (smtp.connections); at least %d", e.MaxConnectionsPerMailbox, smtpConnections, smtpConnections+1))
	}
	return errs
}

// LocalDomain splits Address into its local part and domain.
func (c *Config) LocalDomain() (local, domain string) {
	i := strings.LastIndexByte(c.Address, '@')
	return c.Address[:i], c.Address[i+1:]
}
