package mailserver

import (
	"container/list"
	"context"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// This file bounds the connections of one server (IMAP or SMTP): how many there
// are, in total, per client address and per logged-in mailbox, how long one may
// stay without logging in and how long its client may stay silent. The protocol
// servers see only connections the limiter admitted (limitListener); sessions tell
// it of a login (limitedConn.login).

// clientKey is the client address a connection counts under: the IPv4 address,
// the IPv6 /64, or "loopback" for every loopback address (a user of the same
// host can connect from any of 127.0.0.0/8).
func clientKey(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	switch {
	case tcp.IP.IsLoopback():
		return "loopback"
	case tcp.IP.To4() != nil:
		return tcp.IP.To4().String()
	default:
		return tcp.IP.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
}

// farewells are the lines a connection closed by the limiter is sent, in its
// protocol.
type farewells struct {
	busy, loginTimeout, idle string
}

var (
	imapFarewells = farewells{
		busy:         "* BYE Too many connections, try again later\r\n",
		loginTimeout: "* BYE Login took too long\r\n",
		idle:         "* BYE Autologout; idle for too long\r\n",
	}
	smtpFarewells = farewells{
		busy:         "421 4.7.0 Too many connections, try again later\r\n",
		loginTimeout: "421 4.4.2 Session without login took too long, closing connection\r\n",
		idle:         "421 4.4.2 Idle timeout, closing connection\r\n",
	}
)

// connLimiter counts the connections of one server. It is safe for concurrent use.
type connLimiter struct {
	limits Limits
	idle   time.Duration
	bye    farewells
	log    *rareLog

	mu      sync.Mutex
	total   int
	perAddr map[string]int
	perAcct map[string]int
	// waiting holds the connections that have not logged in, oldest first: the
	// ones closed to make room.
	waiting list.List
}

func newConnLimiter(limits Limits, idle time.Duration, bye farewells, log *rareLog) *connLimiter {
	return &connLimiter{limits: limits, idle: idle, bye: bye, log: log, perAddr: make(map[string]int), perAcct: make(map[string]int)}
}

// limitListener admits the connections of its limiter; it writes the refusal to
// those it turns away and closes them.
type limitListener struct {
	net.Listener
	l *connLimiter
}

// Accept returns the next admitted connection.
func (ln *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if lc := ln.l.admit(c); lc != nil {
			return lc, nil
		}
	}
}

// admit counts c in, closing the oldest connections that have not logged in when
// a cap is reached (of c's address for the per-address cap); it refuses c (and
// returns nil) when there are none to close.
func (l *connLimiter) admit(c net.Conn) *limitedConn {
	key := clientKey(c.RemoteAddr())
	l.mu.Lock()
	var victims []*limitedConn
	refuse := false
	if l.perAddr[key] >= l.limits.MaxConnsPerAddr {
		v := l.oldestWaiting(key, nil)
		victims, refuse = append(victims, v), v == nil
	}
	if !refuse && l.total-len(victims) >= l.limits.MaxConns {
		v := l.oldestWaiting("", victims)
		victims, refuse = append(victims, v), v == nil
	}
	if refuse {
		l.mu.Unlock()
		l.log.log("connection refused: the server holds its most connections", "client", key)
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.Write([]byte(l.bye.busy))
		_ = c.Close()
		return nil
	}
	for _, v := range victims {
		l.releaseLocked(v)
	}
	lc := &limitedConn{Conn: c, l: l, key: key, closed: make(chan struct{})}
	l.total++
	l.perAddr[key]++
	lc.elem = l.waiting.PushBack(lc)
	lc.loginTimer = time.AfterFunc(l.limits.LoginTimeout, func() {
		l.log.log("connection closed: no login in time", "client", key)
		lc.farewell(l.bye.loginTimeout)
	})
	lc.idleTimer = time.AfterFunc(l.idle, func() {
		l.log.log("connection closed: idle", "client", key)
		lc.farewell(l.bye.idle)
	})
	l.mu.Unlock()
	for _, v := range victims {
		l.log.log("connection without login closed to make room for a new one", "client", v.key)
		v.farewell(l.bye.busy)
	}
	return lc
}

// oldestWaiting returns the oldest connection that has not logged in, of client
// key (any when key is ""), other than those of skip, or nil. l.mu must be held.
func (l *connLimiter) oldestWaiting(key string, skip []*limitedConn) *limitedConn {
	for e := l.waiting.Front(); e != nil; e = e.Next() {
		if lc := e.Value.(*limitedConn); (key == "" || lc.key == key) && !slices.Contains(skip, lc) {
			return lc
		}
	}
	return nil
}

// releaseLocked stops counting lc. l.mu must be held.
func (l *connLimiter) releaseLocked(lc *limitedConn) {
	if lc.released {
		return
	}
	lc.released = true
	l.total--
	if l.perAddr[lc.key]--; l.perAddr[lc.key] <= 0 {
		delete(l.perAddr, lc.key)
	}
	if lc.account != "" {
		if l.perAcct[lc.account]--; l.perAcct[lc.account] <= 0 {
			delete(l.perAcct, lc.account)
		}
	}
	if lc.elem != nil {
		l.waiting.Remove(lc.elem)
		lc.elem = nil
	}
}

// limitedConn is a connection the limiter counts. Reads from the client keep it
// from the idle timeout; a login stops the login timeout.
type limitedConn struct {
	net.Conn
	l   *connLimiter
	key string

	// Guarded by l.mu.
	elem     *list.Element // in l.waiting until login
	account  string        // the mailbox logged in to, "" before
	released bool
	failures int // failed logins on this connection

	loginTimer, idleTimer *time.Timer
	closeOnce             sync.Once
	closed                chan struct{} // closed by Close
	// wmu orders the protocol server's writes with a farewell line.
	wmu            sync.Mutex
	dropAfterWrite atomic.Bool
}

// Read reads from the client; data received restarts the idle timeout.
func (lc *limitedConn) Read(p []byte) (int, error) {
	n, err := lc.Conn.Read(p)
	if n > 0 {
		lc.idleTimer.Reset(lc.l.idle)
	}
	return n, err
}

// Write writes to the client, then closes the connection if closeAfterReply was
// called.
func (lc *limitedConn) Write(p []byte) (int, error) {
	lc.wmu.Lock()
	n, err := lc.Conn.Write(p)
	lc.wmu.Unlock()
	if lc.dropAfterWrite.Load() {
		lc.Close()
	}
	return n, err
}

// closeAfterReply closes the connection once the next reply is written.
func (lc *limitedConn) closeAfterReply() { lc.dropAfterWrite.Store(true) }

// Close closes the connection and stops counting it.
func (lc *limitedConn) Close() error {
	err := net.ErrClosed
	lc.closeOnce.Do(func() {
		lc.l.mu.Lock() // the timers are set under it
		lc.loginTimer.Stop()
		lc.idleTimer.Stop()
		lc.l.releaseLocked(lc)
		lc.l.mu.Unlock()
		close(lc.closed)
		err = lc.Conn.Close()
	})
	return err
}

// farewell sends line, unless the protocol server is busy writing (for over
// 10 ms: it never waits on a client that does not read), and closes the
// connection.
func (lc *limitedConn) farewell(line string) {
	for try := 0; try < 10; try++ {
		if lc.wmu.TryLock() {
			_ = lc.Conn.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = lc.Conn.Write([]byte(line))
			lc.wmu.Unlock()
			break
		}
		time.Sleep(time.Millisecond)
	}
	lc.Close()
}

// login records that the connection logged in to account. It reports false, and
// counts nothing, when account already has the most logged-in connections or the
// connection is closed.
func (lc *limitedConn) login(account string) bool {
	l := lc.l
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case lc.released:
		return false
	case lc.account != "":
		return lc.account == account
	case l.perAcct[account] >= l.limits.MaxConnsPerAccount:
		return false
	}
	l.perAcct[account]++
	lc.account = account
	if lc.elem != nil {
		l.waiting.Remove(lc.elem)
		lc.elem = nil
	}
	lc.loginTimer.Stop()
	return true
}

// failedLogin counts a failed login on the connection and reports whether it was
// the last one allowed: the reply to it closes the connection.
func (lc *limitedConn) failedLogin() (last bool) {
	l := lc.l
	l.mu.Lock()
	lc.failures++
	last = lc.failures >= l.limits.LoginFailures
	l.mu.Unlock()
	if last {
		lc.closeAfterReply()
	}
	return last
}

// sleep waits d, or less when ctx ends or the connection closes; it reports
// whether the whole wait passed.
func (lc *limitedConn) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-lc.closed:
		return false
	}
}
