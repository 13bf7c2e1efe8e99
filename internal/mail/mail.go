// Package mail sends latchd's e-mails: login codes, device approval links
// and e-mail change codes. SMTP delivers them in production; latchd dev keeps
// them in an Outbox that /dev/outbox shows instead.
package mail

import (
	"context"
	"time"
)

// Kinds of message, each with its own templates.
const (
	KindCode        = "code"         // a login code
	KindDevice      = "device"       // a device approval link
	KindEmailChange = "email-change" // a code confirming an e-mail change
)

// Message is one rendered e-mail. Code and Link repeat what the body
// carries so that the dev outbox can show them; senders ignore them.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
	Kind    string
	Code    string
	Link    string
}

// Sender delivers messages.
//
// Send returns nil only once the message is handed to its destination (the
// SMTP server accepted it, or the outbox holds it); any failure, after the
// implementation's own retries, is an error. Implementations are safe for
// concurrent use.
type Sender interface {
	Send(ctx context.Context, msg Message) error
}

// Stored is a message kept by an Outbox.
type Stored struct {
	ID      string    `json:"id"`
	To      string    `json:"to"`
	Subject string    `json:"subject"`
	Kind    string    `json:"kind"`
	Code    string    `json:"code,omitempty"`
	Link    string    `json:"link,omitempty"`
	Text    string    `json:"text"`
	HTML    string    `json:"html"`
	SentAt  time.Time `json:"sentAt"`
}
