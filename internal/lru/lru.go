// Package lru is a bounded map that forgets the key touched longest ago: the
// memory of what the servers remember about clients (failed logins, message
// rates, request rates) stays bounded whatever a flood of addresses sends.
package lru

import "container/list"

// Cache maps keys to values of type V, holding at most its maximum: adding a key
// beyond it forgets the one touched longest ago. It is not safe for concurrent use.
type Cache[V any] struct {
	max   int
	m     map[string]*list.Element
	order list.List // of *entry[V], least recently touched first
}

type entry[V any] struct {
	key string
	val V
}

// New returns a Cache of at most limit keys (at least one).
func New[V any](limit int) *Cache[V] {
	return &Cache[V]{max: max(limit, 1), m: make(map[string]*list.Element)}
}

// Get returns key's value, or nil; it does not count as a touch.
func (c *Cache[V]) Get(key string) *V {
	if e := c.m[key]; e != nil {
		return &e.Value.(*entry[V]).val
	}
	return nil
}

// Touch returns key's value, added (as the zero V) if missing, and makes it the
// most recently touched.
func (c *Cache[V]) Touch(key string) *V {
	if e := c.m[key]; e != nil {
		c.order.MoveToBack(e)
		return &e.Value.(*entry[V]).val
	}
	if len(c.m) >= c.max {
		oldest := c.order.Front()
		c.order.Remove(oldest)
		delete(c.m, oldest.Value.(*entry[V]).key)
	}
	e := c.order.PushBack(&entry[V]{key: key})
	c.m[key] = e
	return &e.Value.(*entry[V]).val
}

// Len returns how many keys it holds.
func (c *Cache[V]) Len() int { return len(c.m) }
