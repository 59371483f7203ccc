package tools

import (
	"sync"
	"time"
)

// webCacheFor is how long a fetched page answers a fetch of the same URL
// in a session: a model that reads a page twice gets it at once, and a
// page that changed is fetched again within minutes.
const webCacheFor = 15 * time.Minute

// webCacheMax bounds the pages one session keeps.
const webCacheMax = 64

// WebCache is one session's fetched pages, by URL. Its zero value is not
// usable: NewWebCache. A nil *WebCache keeps nothing.
type WebCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
	now   func() time.Time
}

type cachedPage struct {
	text    string
	fetched time.Time
}

// NewWebCache returns an empty cache.
func NewWebCache() *WebCache { return &WebCache{pages: map[string]cachedPage{}, now: time.Now} }

func (c *WebCache) get(url string) (string, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[url]
	if !ok || c.now().Sub(p.fetched) > webCacheFor {
		return "", false
	}
	return p.text, true
}

func (c *WebCache) put(url, text string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.pages) >= webCacheMax {
		// Full: the stale pages go, and if none is stale, the oldest.
		oldest := ""
		for u, p := range c.pages {
			if now.Sub(p.fetched) > webCacheFor {
				delete(c.pages, u)
			} else if oldest == "" || p.fetched.Before(c.pages[oldest].fetched) {
				oldest = u
			}
		}
		if len(c.pages) >= webCacheMax {
			delete(c.pages, oldest)
		}
	}
	c.pages[url] = cachedPage{text: text, fetched: now}
}
