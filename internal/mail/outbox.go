package mail

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// DefaultOutboxSize is how many messages an Outbox keeps.
const DefaultOutboxSize = 200

// Outbox is a Sender that keeps the last messages in memory instead of
// sending them (latchd dev). Its Send never fails.
type Outbox struct {
	mu   sync.Mutex
	msgs []Stored // oldest first
	next int
	max  int
	// Now is the clock stamping messages; tests replace it.
	Now func() time.Time
}

// NewOutbox returns an outbox keeping the last max messages (≤ 0: DefaultOutboxSize).
func NewOutbox(max int) *Outbox {
	if max <= 0 {
		max = DefaultOutboxSize
	}
	return &Outbox{max: max, Now: time.Now}
}

// Send stores msg, dropping the oldest message when the outbox is full.
func (o *Outbox) Send(ctx context.Context, msg Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.next++
	o.msgs = append(o.msgs, Stored{
		ID: strconv.Itoa(o.next), To: msg.To, Subject: msg.Subject, Kind: msg.Kind, Code: msg.Code, Link: msg.Link,
		Text: msg.Text, HTML: msg.HTML, SentAt: o.Now().UTC(),
	})
	if len(o.msgs) > o.max {
		o.msgs = append(o.msgs[:0:0], o.msgs[len(o.msgs)-o.max:]...)
	}
	return nil
}

// List returns the stored messages to the address to (all when to is ""),
// newest first.
func (o *Outbox) List(to string) []Stored {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := []Stored{}
	for i := len(o.msgs) - 1; i >= 0; i-- {
		if to == "" || o.msgs[i].To == to {
			out = append(out, o.msgs[i])
		}
	}
	return out
}
