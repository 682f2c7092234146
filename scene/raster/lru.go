package raster

import (
	"container/list"
	"sync"
)

// lru keeps values up to a total cost, dropping the least recently used first. Safe
// for concurrent use; the zero lru keeps nothing until limit is set.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	limit int
	cost  int
	order list.List // of *entry[K, V], the latest in front
	byKey map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	cost int
}

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// put keeps v under k (a value over the whole limit is not kept).
func (c *lru[K, V]) put(k K, v V, cost int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cost > c.limit {
		return
	}
	if c.byKey == nil {
		c.byKey = map[K]*list.Element{}
	}
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byKey[k] = c.order.PushFront(&entry[K, V]{k, v, cost})
	c.cost += cost
	for c.cost > c.limit {
		e := c.order.Back()
		old := e.Value.(*entry[K, V])
		c.order.Remove(e)
		delete(c.byKey, old.key)
		c.cost -= old.cost
	}
}

// len returns the number of values kept.
func (c *lru[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
