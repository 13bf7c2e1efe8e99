package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/jsonrpc"
)

// Tags the composite methods publish with (sign-client ENGINE_RPC_OPTS).
const (
	tagSessionPropose         = 1100
	tagSessionProposeResponse = 1101
	tagSessionSettle          = 1102
	// compositeTTL is the TTL of wc_proposeSession / wc_approveSession
	// messages when the client gives none (it sends 300).
	compositeTTL = 300
)

var (
	resultTrue   = []byte("true")
	errStorage   = &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "Storage operation failed; retry later", Data: tagStorageError}
	errRateLimit = func(rate int) *jsonrpc.Error {
		return &jsonrpc.Error{Code: jsonrpc.CodeTooManyRequests, Message: fmt.Sprintf("Too many requests: at most %d messages may be published per second on one connection", rate), Data: tagTooManyRequests}
	}
)

// The two answers to a publish the relay's storage did not take (Broker:
// Errors): refused, or unknown.
var (
	errNotStored      = &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "Storage operation failed: the message was not stored and will not be delivered; retry later", Data: tagStorageError}
	errPublishUnknown = &jsonrpc.Error{Code: jsonrpc.CodeUnavailable, Message: "Publish outcome unknown: the relay's storage did not answer in time, and the message may still be delivered; publish it again (a repeated message is stored and delivered once)", Data: tagPublishOutcomeUnknown}
)

func itoa(n int) string { return strconv.Itoa(n) }

// opTimeout bounds one broker operation (a Redis round trip or two).
const opTimeout = 5 * time.Second

// opContext bounds one broker operation. The memory broker never waits, so
// it gets no timer.
func (s *Server) opContext() (context.Context, context.CancelFunc) {
	if _, ok := s.broker.(*Memory); ok {
		return context.Background(), func() {}
	}
	return context.WithTimeout(context.Background(), opTimeout)
}

// call runs one method. after, if set, runs once the result has been written
// (deliveries that must follow the answer).
func (c *conn) call(method string, params json.RawMessage) (result []byte, after func(), err *jsonrpc.Error) {
	if rest, ok := strings.CutPrefix(method, "iridium_"); ok {
		method = "irn_" + rest // the legacy names the spec still lists
	}
	ctx, cancel := c.s.opContext()
	defer cancel()
	switch method {
	case "irn_publish":
		return c.publishOne(ctx, params)
	case "irn_batchPublish":
		return c.batchPublish(ctx, params)
	case "irn_subscribe":
		return c.subscribeOne(ctx, params)
	case "irn_batchSubscribe":
		return c.batchSubscribe(ctx, params)
	case "irn_unsubscribe":
		return c.unsubscribeOne(ctx, params)
	case "irn_batchUnsubscribe":
		return c.batchUnsubscribe(ctx, params)
	case "irn_fetchMessages":
		var p struct {
			Topic *string `json:"topic"`
		}
		if err := decodeParams(params, &p); err != nil {
			return nil, nil, err
		}
		if err := checkTopic("topic", p.Topic); err != nil {
			return nil, nil, err
		}
		return c.fetch(ctx, []string{*p.Topic})
	case "irn_batchFetchMessages":
		var p struct {
			Topics []string `json:"topics"`
		}
		if err := decodeParams(params, &p); err != nil {
			return nil, nil, err
		}
		if err := checkTopics("topics", p.Topics); err != nil {
			return nil, nil, err
		}
		return c.fetch(ctx, p.Topics)
	case "wc_proposeSession":
		return c.proposeSession(ctx, params)
	case "wc_approveSession":
		return c.approveSession(ctx, params)
	case "irn_subscription":
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: irn_subscription is sent by the relay, not to it", Data: tagInvalidMethod}
	}
	name := method
	if len(name) > 64 {
		name = name[:64] + "…"
	}
	return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + strconv.Quote(name), Data: tagInvalidMethod}
}

// publishParams are irn_publish's params. Extra fields (prompt, the
// TVF fields, correlationId…) are accepted and ignored.
type publishParams struct {
	Topic       *string  `json:"topic"`
	Message     *string  `json:"message"`
	TTL         *float64 `json:"ttl"`
	Tag         uint32   `json:"tag"`
	Attestation string   `json:"attestation"`
}

func (c *conn) publishOne(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	m, err := c.publishedMessage(params)
	if err != nil {
		return nil, nil, err
	}
	if !c.allowPublish(1) {
		return nil, nil, errRateLimit(c.s.limits.PublishRate)
	}
	if err := c.publish(ctx, m); err != nil {
		return nil, nil, err
	}
	return resultTrue, nil, nil
}

// publishedMessage validates irn_publish params into the message to
// publish. On the fast path its strings (id, topic, message, attestation)
// share one allocation of exactly their bytes (so Message.Size still counts
// all that a stored message holds).
func (c *conn) publishedMessage(params json.RawMessage) (*Message, *jsonrpc.Error) {
	f, ok := parsePublishFast(params)
	if !ok || !f.message.set {
		var p publishParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return c.newMessage("", "message", p.Topic, p.Message, p.TTL, true, p.Tag, p.Attestation)
	}
	view := func(sp span) []byte { return params[sp.start:sp.end] }
	var id [2 * sha256.Size]byte
	sum := sha256.Sum256(view(f.message))
	hex.Encode(id[:], sum[:])
	var sb strings.Builder
	sb.Grow(len(id) + len(view(f.topic)) + len(view(f.message)) + len(view(f.attestation)))
	sb.Write(id[:])
	sb.Write(view(f.topic))
	sb.Write(view(f.message))
	sb.Write(view(f.attestation))
	all := sb.String()
	next := func(sp span) string {
		v := all[:sp.end-sp.start]
		all = all[len(v):]
		return v
	}
	idStr := next(span{end: len(id)})
	topic, message, attestation := next(f.topic), next(f.message), next(f.attestation)
	var topicp *string
	if f.topic.set {
		topicp = &topic
	}
	var ttl *float64
	if f.hasTTL {
		ttl = &f.ttl
	}
	return c.buildMessage(idStr, "", "message", topicp, &message, ttl, true, f.tag, attestation)
}

func (c *conn) batchPublish(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p struct {
		Messages []publishParams `json:"messages"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkBatch("messages", len(p.Messages)); err != nil {
		return nil, nil, err
	}
	// Validate every message before publishing any.
	msgs := make([]*Message, len(p.Messages))
	for i, mp := range p.Messages {
		m, err := c.newMessage(fmt.Sprintf("messages[%d].", i), "message", mp.Topic, mp.Message, mp.TTL, true, mp.Tag, mp.Attestation)
		if err != nil {
			return nil, nil, err
		}
		msgs[i] = m
	}
	if !c.allowPublish(len(msgs)) {
		return nil, nil, errRateLimit(c.s.limits.PublishRate)
	}
	for i, m := range msgs {
		if err := c.publish(ctx, m); err != nil {
			if i > 0 {
				err = &jsonrpc.Error{Code: err.Code, Data: err.Data, Message: fmt.Sprintf("%s (messages[%d]; the %d before it were published)", err.Message, i, i)}
			}
			return nil, nil, err
		}
	}
	return resultTrue, nil, nil
}

func (c *conn) subscribeOne(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p struct {
		Topic *string `json:"topic"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkTopic("topic", p.Topic); err != nil {
		return nil, nil, err
	}
	if err := c.reserveTopics([]string{*p.Topic}); err != nil {
		return nil, nil, err
	}
	subID, backlog, err := c.subscribe(ctx, *p.Topic)
	if err != nil {
		return nil, nil, err
	}
	return jsonrpc.AppendString(nil, subID), func() { c.deliverAll(backlog) }, nil
}

func (c *conn) batchSubscribe(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p struct {
		Topics []string `json:"topics"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkTopics("topics", p.Topics); err != nil {
		return nil, nil, err
	}
	if err := c.reserveTopics(p.Topics); err != nil {
		return nil, nil, err
	}
	result := []byte{'['}
	var backlog []*Message
	for i, topic := range p.Topics {
		subID, msgs, err := c.subscribe(ctx, topic)
		if err != nil {
			return nil, nil, err
		}
		if i > 0 {
			result = append(result, ',')
		}
		result = jsonrpc.AppendString(result, subID)
		backlog = append(backlog, msgs...)
	}
	return append(result, ']'), func() { c.deliverAll(backlog) }, nil
}

// reserveTopics refuses a subscription request that would take the socket
// over its topic limit, before subscribing any of its topics.
func (c *conn) reserveTopics(topics []string) *jsonrpc.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.subs)
	for _, t := range topics {
		if _, ok := c.subs[t]; !ok {
			n++
		}
	}
	if n > c.s.limits.MaxTopicsPerConn {
		return &jsonrpc.Error{Code: jsonrpc.CodeRefused, Message: fmt.Sprintf("Subscriber limit exceeded: at most %d topics per connection", c.s.limits.MaxTopicsPerConn), Data: tagSubscriberLimitExceeded}
	}
	return nil
}

// subscribe subscribes the socket to topic (again, if it already is) and
// returns the mailbox messages it has yet to receive.
func (c *conn) subscribe(ctx context.Context, topic string) (string, []*Message, *jsonrpc.Error) {
	subID := subscriptionID(topic, c.clientID)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return "", nil, errStorage
	}
	if c.subs == nil {
		c.subs = map[string]string{}
	}
	_, had := c.subs[topic]
	// Registered before the broker call, so live deliveries racing the
	// subscription find it.
	c.subs[topic] = subID
	c.mu.Unlock()
	backlog, err := c.s.broker.Subscribe(ctx, topic, c)
	if err != nil {
		if !had {
			c.mu.Lock()
			delete(c.subs, topic)
			c.mu.Unlock()
		}
		return "", nil, c.brokerError(err)
	}
	if !had {
		c.nsubs.Add(1)
		c.s.subs.Add(1)
	}
	return subID, backlog, nil
}

type unsubscribeParams struct {
	Topic *string `json:"topic"`
	ID    string  `json:"id"` // the client's own subscription id; the topic decides
}

func (c *conn) unsubscribeOne(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p unsubscribeParams
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkTopic("topic", p.Topic); err != nil {
		return nil, nil, err
	}
	if err := c.unsubscribe(ctx, *p.Topic); err != nil {
		return nil, nil, err
	}
	return resultTrue, nil, nil
}

func (c *conn) batchUnsubscribe(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p struct {
		Subscriptions []unsubscribeParams `json:"subscriptions"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkBatch("subscriptions", len(p.Subscriptions)); err != nil {
		return nil, nil, err
	}
	for i, s := range p.Subscriptions {
		if err := checkTopic(fmt.Sprintf("subscriptions[%d].topic", i), s.Topic); err != nil {
			return nil, nil, err
		}
	}
	for _, s := range p.Subscriptions {
		if err := c.unsubscribe(ctx, *s.Topic); err != nil {
			return nil, nil, err
		}
	}
	return resultTrue, nil, nil
}

func (c *conn) unsubscribe(ctx context.Context, topic string) *jsonrpc.Error {
	c.mu.Lock()
	_, had := c.subs[topic]
	delete(c.subs, topic)
	c.mu.Unlock()
	if !had {
		return nil
	}
	c.nsubs.Add(-1)
	c.s.subs.Add(-1)
	if err := c.s.broker.Unsubscribe(ctx, topic, c); err != nil {
		return c.brokerError(err)
	}
	return nil
}

// fetch answers irn_fetchMessages / irn_batchFetchMessages: the messages of
// the topics this client has not received, at most MaxFetch and about
// MaxFetchBytes, oldest first.
// Once the answer is written they count as received (acknowledged), so the
// next fetch returns the rest.
func (c *conn) fetch(ctx context.Context, topics []string) ([]byte, func(), *jsonrpc.Error) {
	var msgs []*Message
	more := false
	for _, topic := range topics {
		room := MaxFetch - len(msgs)
		if room == 0 {
			more = true
			break
		}
		got, hasMore, err := c.s.broker.Fetch(ctx, topic, c.clientID, room)
		if err != nil {
			return nil, nil, c.brokerError(err)
		}
		msgs = append(msgs, got...)
		more = more || hasMore
	}
	slices.SortStableFunc(msgs, func(a, b *Message) int { return int(a.PublishedAt - b.PublishedAt) })
	// Paged by bytes as well: the oldest messages up to MaxFetchBytes (at
	// least one); the rest stay unacknowledged for the next fetch.
	size := 0
	for i, m := range msgs {
		if size += len(m.Message) + len(m.Attestation); i > 0 && size > MaxFetchBytes {
			msgs, more = msgs[:i], true
			break
		}
	}
	result := []byte(`{"messages":[`)
	for i, m := range msgs {
		if i > 0 {
			result = append(result, ',')
		}
		result = appendMessageData(result, m)
	}
	result = append(result, `],"hasMore":`...)
	result = strconv.AppendBool(result, more)
	result = append(result, '}')
	return result, func() {
		ctx, cancel := c.s.opContext()
		defer cancel()
		for _, m := range msgs {
			if err := c.s.broker.Ack(ctx, c.clientID, m); err != nil {
				c.s.log.Warn("relay: ack fetched message", "err", err)
				return
			}
		}
	}, nil
}

// proposeSession is wc_proposeSession: subscribe the dapp to the pairing
// topic and publish the proposal there (tag 1100) for the wallet, which
// subscribes when it scans the URI and finds it in the mailbox.
func (c *conn) proposeSession(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p struct {
		PairingTopic    *string  `json:"pairingTopic"`
		SessionProposal *string  `json:"sessionProposal"`
		TTL             *float64 `json:"ttl"`
		Attestation     string   `json:"attestation"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkTopic("pairingTopic", p.PairingTopic); err != nil {
		return nil, nil, err
	}
	m, err := c.newMessage("", "sessionProposal", p.PairingTopic, p.SessionProposal, p.TTL, false, tagSessionPropose, p.Attestation)
	if err != nil {
		return nil, nil, err
	}
	return c.subscribeAndPublish(ctx, *p.PairingTopic, m)
}

// approveSession is wc_approveSession: subscribe the wallet to the session
// topic, answer the proposal on the pairing topic (tag 1101) and send the
// settlement on the session topic (tag 1102).
func (c *conn) approveSession(ctx context.Context, params json.RawMessage) ([]byte, func(), *jsonrpc.Error) {
	var p struct {
		SessionTopic             *string  `json:"sessionTopic"`
		PairingTopic             *string  `json:"pairingTopic"`
		SessionProposalResponse  *string  `json:"sessionProposalResponse"`
		SessionSettlementRequest *string  `json:"sessionSettlementRequest"`
		TTL                      *float64 `json:"ttl"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, nil, err
	}
	if err := checkTopic("sessionTopic", p.SessionTopic); err != nil {
		return nil, nil, err
	}
	if err := checkTopic("pairingTopic", p.PairingTopic); err != nil {
		return nil, nil, err
	}
	response, err := c.newMessage("", "sessionProposalResponse", p.PairingTopic, p.SessionProposalResponse, p.TTL, false, tagSessionProposeResponse, "")
	if err != nil {
		return nil, nil, err
	}
	settle, err := c.newMessage("", "sessionSettlementRequest", p.SessionTopic, p.SessionSettlementRequest, p.TTL, false, tagSessionSettle, "")
	if err != nil {
		return nil, nil, err
	}
	return c.subscribeAndPublish(ctx, *p.SessionTopic, response, settle)
}

// subscribeAndPublish is the common tail of the wc_ methods: subscribe this
// socket to topic, then publish msgs in order. Limits are checked before
// anything happens, and the topic's backlog is delivered after the answer.
func (c *conn) subscribeAndPublish(ctx context.Context, topic string, msgs ...*Message) ([]byte, func(), *jsonrpc.Error) {
	if err := c.reserveTopics([]string{topic}); err != nil {
		return nil, nil, err
	}
	if !c.allowPublish(len(msgs)) {
		return nil, nil, errRateLimit(c.s.limits.PublishRate)
	}
	_, backlog, err := c.subscribe(ctx, topic)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range msgs {
		if err := c.publish(ctx, m); err != nil {
			return nil, nil, err
		}
	}
	return resultTrue, func() { c.deliverAll(backlog) }, nil
}

// newMessage validates a message to publish. prefix names the batch entry in
// errors; requireTTL is false for the composite methods (default 300 s).
func (c *conn) newMessage(prefix, messageField string, topic, message *string, ttl *float64, requireTTL bool, tag uint32, attestation string) (*Message, *jsonrpc.Error) {
	return c.buildMessage("", prefix, messageField, topic, message, ttl, requireTTL, tag, attestation)
}

// buildMessage is newMessage with the message's id when the caller has
// computed it already (MessageID(*message)); "" computes it.
func (c *conn) buildMessage(id, prefix, messageField string, topic, message *string, ttl *float64, requireTTL bool, tag uint32, attestation string) (*Message, *jsonrpc.Error) {
	if err := checkTopic(prefix+"topic", topic); err != nil {
		return nil, err
	}
	if message == nil || *message == "" {
		return nil, invalidParams("%s%s is required (a non-empty string)", prefix, messageField)
	}
	if len(*message) > c.s.limits.MaxMessageBytes {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: tagPayloadSizeExceeded,
			Message: fmt.Sprintf("Payload size exceeded: %s%s is %d bytes, the limit is %d", prefix, messageField, len(*message), c.s.limits.MaxMessageBytes)}
	}
	seconds := float64(compositeTTL)
	if ttl == nil {
		if requireTTL {
			return nil, invalidParams("%sttl is required (seconds to keep the message)", prefix)
		}
	} else {
		seconds = *ttl
	}
	maxTTL := c.s.limits.MaxTTL.Seconds()
	if seconds != math.Trunc(seconds) || seconds < 1 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: tagTtlTooShort, Message: fmt.Sprintf("Invalid params: %sttl must be a whole number of seconds, at least 1", prefix)}
	}
	if seconds > maxTTL {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: tagTtlTooLong, Message: fmt.Sprintf("Invalid params: %sttl must be at most %d seconds", prefix, int64(maxTTL))}
	}
	if len(attestation) > attestationMax {
		return nil, invalidParams("%sattestation is longer than %d bytes", prefix, attestationMax)
	}
	if id == "" {
		id = MessageID(*message)
	}
	now := c.s.now()
	return &Message{
		ID:          id,
		Topic:       *topic,
		Message:     *message,
		PublishedAt: now.UnixMilli(),
		ExpiresAt:   now.Add(time.Duration(seconds) * time.Second).UnixMilli(),
		Tag:         tag,
		Attestation: attestation,
		Publisher:   c.clientID,
		Owner:       c.ip,
	}, nil
}

func (c *conn) publish(ctx context.Context, m *Message) *jsonrpc.Error {
	stored, err := c.s.broker.Publish(ctx, m)
	if errors.Is(err, ErrMailboxFull) {
		return &jsonrpc.Error{Code: jsonrpc.CodeRefused, Data: tagMailboxLimitExceeded,
			Message: fmt.Sprintf("Mailbox limit exceeded: this client has %d undelivered messages on the topic; retry once the peer has received some", c.s.limits.MaxMessagesPerTopic)}
	}
	if errors.Is(err, ErrOwnerQuota) {
		return &jsonrpc.Error{Code: jsonrpc.CodeRefused, Data: tagMailboxLimitExceeded,
			Message: "Mailbox limit exceeded: messages from this address that no peer has received yet take all the room it may use; retry once some are received or expire"}
	}
	if errors.Is(err, ErrBrokerFull) {
		return &jsonrpc.Error{Code: jsonrpc.CodeRefused, Data: tagMailboxLimitExceeded,
			Message: "Mailbox limit exceeded: the relay's storage is full; retry later"}
	}
	if errors.Is(err, ErrOutcomeUnknown) {
		c.s.log.Warn("relay: publish outcome unknown", "err", err)
		return errPublishUnknown
	}
	if errors.Is(err, ErrUnavailable) {
		// Not logged per publish: the outage is (its breaker's log).
		return errNotStored
	}
	if err != nil {
		return c.brokerError(err)
	}
	if stored {
		c.s.m.stored.Inc()
	} else {
		c.s.m.duplicate.Inc()
	}
	return nil
}

func (c *conn) brokerError(err error) *jsonrpc.Error {
	// An outage of the broker's store is logged once, by its breaker.
	if !errors.Is(err, ErrClosed) && !errors.Is(err, ErrUnavailable) && !errors.Is(err, breaker.ErrOpen) {
		c.s.log.Error("relay: broker", "err", err)
	}
	return errStorage
}

// decodeParams decodes a params object, naming the offending field on error.
func decodeParams(raw json.RawMessage, v any) *jsonrpc.Error {
	if len(raw) == 0 || raw[0] != '{' {
		return invalidParams("params must be an object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return invalidParams("%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		}
		return invalidParams("params are not valid JSON")
	}
	return nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string", "ptr":
		return "a string"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "a boolean"
	case "uint32":
		return "an integer from 0 to 4294967295"
	}
	return "a number"
}

// checkTopic requires a topic: 32 bytes as 64 hexadecimal characters.
func checkTopic(field string, topic *string) *jsonrpc.Error {
	if topic == nil || *topic == "" {
		return invalidParams("%s is required", field)
	}
	if !isTopic(*topic) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: tagInvalidTopic, Message: fmt.Sprintf("Invalid params: %s must be 64 hexadecimal characters (32 bytes)", field)}
	}
	return nil
}

func checkTopics(field string, topics []string) *jsonrpc.Error {
	if err := checkBatch(field, len(topics)); err != nil {
		return err
	}
	for i := range topics {
		if err := checkTopic(fmt.Sprintf("%s[%d]", field, i), &topics[i]); err != nil {
			return err
		}
	}
	return nil
}

func checkBatch(field string, n int) *jsonrpc.Error {
	if n == 0 {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: tagBatchEmpty, Message: fmt.Sprintf("Invalid params: %s must not be empty", field)}
	}
	if n > MaxBatch {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: tagBatchLimitExceeded, Message: fmt.Sprintf("Invalid params: %s has %d entries; at most %d are allowed", field, n, MaxBatch)}
	}
	return nil
}

func isTopic(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
