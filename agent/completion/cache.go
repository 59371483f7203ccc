package completion

import (
	"container/list"
	"strings"
	"sync"
	"unicode/utf8"
)

// keyChars is how much of the prefix's end and the suffix's start key a
// cached suggestion: enough to tell places in a file apart, short enough
// that an edit far from the cursor does not throw the entry away.
const keyChars = 128

// cache holds recent suggestions so that typing what a suggestion says
// re-serves its remainder without asking the model again.
type cache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *entry, most recent first
}

// entry is one suggestion, as post-processed, where it was made.
type entry struct {
	doc        string
	prefixTail string // the last keyChars of the prefix
	suffixHead string // the first keyChars of the suffix
	insert     string
	overlap    int // bytes of the cursor line's rest the suggestion replaces
}

func newCache(size int) *cache {
	return &cache{size: size, order: list.New()}
}

func tail(s string) string {
	if len(s) > keyChars {
		return s[len(s)-keyChars:]
	}
	return s
}

func head(s string) string {
	if len(s) > keyChars {
		return s[:keyChars]
	}
	return s
}

func (c *cache) put(doc, prefix, suffix, insert string, overlap int) {
	if c.size <= 0 || insert == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &entry{doc: doc, prefixTail: tail(prefix), suffixHead: head(suffix), insert: insert, overlap: overlap}
	for el := c.order.Front(); el != nil; el = el.Next() {
		if o := el.Value.(*entry); o.doc == e.doc && o.prefixTail == e.prefixTail && o.suffixHead == e.suffixHead {
			c.order.Remove(el)
			break
		}
	}
	c.order.PushFront(e)
	for c.order.Len() > c.size {
		c.order.Remove(c.order.Back())
	}
}

// get finds a suggestion made at this place or a little before it, with
// the characters typed since then being the suggestion's start; it
// returns what is left of it. The suffix must be unchanged: typing
// through a suggestion only grows the prefix.
func (c *cache) get(doc, prefix, suffix string) (insert string, overlap int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := head(suffix)
	for el := c.order.Front(); el != nil; el = el.Next() {
		e := el.Value.(*entry)
		if e.doc != doc || e.suffixHead != sh {
			continue
		}
		for typed := 0; typed < len(e.insert); typed++ {
			at := len(prefix) - typed
			if at < 0 {
				break
			}
			if !utf8.RuneStart(e.insert[typed]) || prefix[at:] != e.insert[:typed] || !strings.HasSuffix(prefix[:at], e.prefixTail) {
				continue
			}
			c.order.MoveToFront(el)
			return e.insert[typed:], e.overlap, true
		}
	}
	return "", 0, false
}
