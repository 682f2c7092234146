package lru

import (
	"fmt"
	"testing"
)

// TestCache: a touch keeps a key; beyond the bound the key touched longest ago is
// forgotten; Get does not count as a touch.
func TestCache(t *testing.T) {
	c := New[int](3)
	for _, k := range []string{"a", "b", "c"} {
		*c.Touch(k) = len(k)
	}
	c.Touch("a")      // a is now the most recent: b is the oldest
	_ = c.Get("b")    // not a touch
	*c.Touch("d") = 4 // forgets b
	if c.Get("b") != nil || c.Get("a") == nil || c.Get("c") == nil || *c.Get("d") != 4 {
		t.Errorf("after the fourth key: a=%v b=%v c=%v d=%v, want b forgotten", c.Get("a"), c.Get("b"), c.Get("c"), c.Get("d"))
	}
	for i := range 1000 {
		c.Touch(fmt.Sprint(i))
	}
	if c.Len() != 3 {
		t.Errorf("%d keys held, want 3", c.Len())
	}
	if z := New[int](0); z.Touch("x") == nil || z.Len() != 1 {
		t.Errorf("a cache of bound 0 holds %d keys, want 1", z.Len())
	}
}
