package survey

import "sync"

// cache is a map shared by a survey's workers that stops growing at a
// bound: past it, a value is not remembered and is derived again when next
// needed. The zero cache is empty and ready; it is safe for concurrent use.
type cache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// get returns the value remembered for k.
func (c *cache[K, V]) get(k *K) (V, bool) {
	c.mu.RLock()
	v, ok := c.m[*k]
	c.mu.RUnlock()
	return v, ok
}

// full reports whether the cache holds max values.
func (c *cache[K, V]) full(max int) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m) >= max
}

// put remembers v for k while the cache holds fewer than max values.
func (c *cache[K, V]) put(k *K, v V, max int) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	if len(c.m) < max {
		c.m[*k] = v
	}
	c.mu.Unlock()
}
