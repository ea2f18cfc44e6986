package qrpayout

// Delivery is at least once (docs/api/webhooks.md "Delivery semantics"): the same event can arrive
// again, for example when your 2xx answer was lost. Record event_id with a uniqueness guarantee and
// answer 2xx to duplicates. In production that record is a table with a unique event_id written in
// the same transaction as the processing (sdk/go/README.md "Deduplication in production").

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"
)

// Deduplicator records event ids.
type Deduplicator interface {
	// FirstSeen records eventID; true the first time, false when it was already recorded. Atomic:
	// of two concurrent calls with the same id, at most one returns true.
	FirstSeen(ctx context.Context, eventID string) (bool, error)
	// Forget drops eventID, so that a redelivery is processed again: call it when processing failed
	// after FirstSeen returned true and you answer an error (the service retries).
	Forget(ctx context.Context, eventID string) error
}

// Defaults of NewMemoryDeduplicator: a week (the retry horizon is about 6.2 days,
// docs/api/webhooks.md "Retries") and 100 000 ids.
const (
	DefaultDedupeTTL        = 7 * 24 * time.Hour
	DefaultDedupeMaxEntries = 100_000
)

// MemoryDeduplicator is a bounded in-memory Deduplicator for development, tests and
// single-process receivers: lost on restart, not shared between instances.
type MemoryDeduplicator struct {
	mu         sync.Mutex
	ttl        time.Duration
	maxEntries int
	now        func() time.Time
	order      *list.List // of *dedupeEntry, oldest first: one ttl for all, so expiry order too
	byID       map[string]*list.Element
}

type dedupeEntry struct {
	id        string
	expiresAt time.Time
}

// NewMemoryDeduplicator remembers each id for ttl (0: DefaultDedupeTTL), at most maxEntries ids
// (0: DefaultDedupeMaxEntries), dropping the oldest first.
func NewMemoryDeduplicator(ttl time.Duration, maxEntries int) *MemoryDeduplicator {
	if ttl <= 0 {
		ttl = DefaultDedupeTTL
	}
	if maxEntries <= 0 {
		maxEntries = DefaultDedupeMaxEntries
	}
	return &MemoryDeduplicator{ttl: ttl, maxEntries: maxEntries, now: time.Now, order: list.New(), byID: map[string]*list.Element{}}
}

// FirstSeen implements Deduplicator.
func (d *MemoryDeduplicator) FirstSeen(_ context.Context, eventID string) (bool, error) {
	if eventID == "" {
		return false, errors.New("qrpayout: the event id must not be empty")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	d.prune(now)
	if _, seen := d.byID[eventID]; seen {
		return false, nil
	}
	d.byID[eventID] = d.order.PushBack(&dedupeEntry{id: eventID, expiresAt: now.Add(d.ttl)})
	for d.order.Len() > d.maxEntries {
		d.remove(d.order.Front())
	}
	return true, nil
}

// Forget implements Deduplicator.
func (d *MemoryDeduplicator) Forget(_ context.Context, eventID string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if element, ok := d.byID[eventID]; ok {
		d.remove(element)
	}
	return nil
}

// Len is the number of ids remembered now.
func (d *MemoryDeduplicator) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.prune(d.now())
	return d.order.Len()
}

func (d *MemoryDeduplicator) prune(now time.Time) {
	for front := d.order.Front(); front != nil && !front.Value.(*dedupeEntry).expiresAt.After(now); front = d.order.Front() {
		d.remove(front)
	}
}

func (d *MemoryDeduplicator) remove(element *list.Element) {
	delete(d.byID, element.Value.(*dedupeEntry).id)
	d.order.Remove(element)
}
