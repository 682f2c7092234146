package daemon

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// listenWeb opens the pages' listener when the pages are on, and returns the base
// URL the mails link them with ("" for none). A listener that cannot be opened (the
// port taken) leaves the daemon without pages, said in the log and to the host: the
// mail goes on.
func (d *Daemon) listenWeb(opts Options) string {
	c := d.Config
	if !c.WebEnabled() {
		return ""
	}
	ln, err := net.Listen("tcp", c.Web.Addr)
	if err != nil {
		d.log.Error("game pages: no listener; the pages are off", "addr", c.Web.Addr, "err", err)
		if opts.Problems != nil {
			fmt.Fprintf(opts.Problems, "turnmail: game pages are off: %v (set web.addr to another address, or off)\n", err)
		}
		return ""
	}
	d.webLn = ln
	return c.PageBaseURL(ln.Addr().String())
}

// closeWeb closes the pages' listener.
func (d *Daemon) closeWeb() {
	if d.webLn != nil {
		_ = d.webLn.Close()
	}
}

// WebAddr returns the address the pages are served at ("" when they are off).
func (d *Daemon) WebAddr() string {
	if d.webLn == nil {
		return ""
	}
	return d.webLn.Addr().String()
}

// withHealth serves /healthz and /metrics from health beside the pages, when both
// share a listener (http_addr is web.addr).
func withHealth(pages, health http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "/healthz" || p == "/metrics" || strings.HasPrefix(p, "/healthz/") {
			health.ServeHTTP(w, r)
			return
		}
		pages.ServeHTTP(w, r)
	})
}
