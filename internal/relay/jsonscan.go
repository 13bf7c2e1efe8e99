package relay

import "strconv"

// A single pass over the frames the relay sees most (every request's
// envelope, irn_publish params, the acknowledgement of each delivery), in
// place of encoding/json's two (validate, then decode) per value.
//
// The fast paths accept only what they decode exactly as encoding/json would:
// keys and decoded strings without escapes or non-ASCII bytes, the expected
// kind for every known field, nesting at most maxScanDepth deep. Anything else
// — including every malformed frame — declines (ok == false) and goes to the
// encoding/json path, which produces the error answers. FuzzFastPaths checks
// the two agree.

// maxScanDepth is the deepest nesting the scanner follows; deeper frames go
// to encoding/json (which allows 10,000 levels).
const maxScanDepth = 64

type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// consume skips white space and then c, reporting whether c was there.
func (s *scanner) consume(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str validates the string at s.i and moves past it. plain reports that it
// holds no escape and no byte outside ASCII, so its bytes are its value.
func (s *scanner) str() (plain, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false, false
	}
	plain = true
	for i := s.i + 1; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			return plain, true
		case c == '\\':
			plain = false
			if i+1 >= len(s.b) {
				return false, false
			}
			i++
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) {
					return false, false
				}
				for _, h := range s.b[i+1 : i+5] {
					if !isHex(h) {
						return false, false
					}
				}
				i += 4
			default:
				return false, false
			}
		case c < 0x20:
			return false, false
		case c >= 0x80:
			plain = false
		}
	}
	return false, false
}

// num validates the number at s.i and moves past it.
func (s *scanner) num() bool {
	i := s.i
	if i < len(s.b) && s.b[i] == '-' {
		i++
	}
	switch {
	case i < len(s.b) && s.b[i] == '0':
		i++
	case i < len(s.b) && s.b[i] >= '1' && s.b[i] <= '9':
		for i < len(s.b) && isDigit(s.b[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s.b) && s.b[i] == '.' {
		i++
		if i >= len(s.b) || !isDigit(s.b[i]) {
			return false
		}
		for i < len(s.b) && isDigit(s.b[i]) {
			i++
		}
	}
	if i < len(s.b) && (s.b[i] == 'e' || s.b[i] == 'E') {
		i++
		if i < len(s.b) && (s.b[i] == '+' || s.b[i] == '-') {
			i++
		}
		if i >= len(s.b) || !isDigit(s.b[i]) {
			return false
		}
		for i < len(s.b) && isDigit(s.b[i]) {
			i++
		}
	}
	s.i = i
	return true
}

func (s *scanner) literal(lit string) bool {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// value validates the value after any white space and moves past it; start
// is where it begins.
func (s *scanner) value(depth int) (start int, ok bool) {
	s.space()
	start = s.i
	if s.i >= len(s.b) {
		return start, false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, ok = s.str()
	case c == '{':
		ok = s.container(depth, '}', true)
	case c == '[':
		ok = s.container(depth, ']', false)
	case c == 't':
		ok = s.literal("true")
	case c == 'f':
		ok = s.literal("false")
	case c == 'n':
		ok = s.literal("null")
	default:
		ok = s.num()
	}
	return start, ok
}

func (s *scanner) container(depth int, end byte, object bool) bool {
	if depth >= maxScanDepth {
		return false
	}
	s.i++ // the opening bracket
	if s.consume(end) {
		return true
	}
	for {
		if object {
			s.space()
			if _, ok := s.str(); !ok || !s.consume(':') {
				return false
			}
		}
		if _, ok := s.value(depth + 1); !ok {
			return false
		}
		if s.consume(end) {
			return true
		}
		if !s.consume(',') {
			return false
		}
	}
}

// fields walks the object at s.i, calling field for each member with its
// key; field must move past the value (or report false to decline). Keys
// that are not plain decline, as do keys that encoding/json would match to
// one of names without being equal to it (it matches case-insensitively).
func (s *scanner) fields(names []string, field func(key string) bool) bool {
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	for {
		s.space()
		start := s.i
		if plain, ok := s.str(); !ok || !plain {
			return false
		}
		kb := s.b[start+1 : s.i-1]
		if !s.consume(':') {
			return false
		}
		known := ""
		for _, n := range names {
			if string(kb) == n {
				known = n
				break
			}
			if asciiEqualFold(kb, n) {
				return false
			}
		}
		if known != "" {
			if !field(known) {
				return false
			}
		} else if _, ok := s.value(1); !ok {
			return false
		}
		if s.consume('}') {
			return true
		}
		if !s.consume(',') {
			return false
		}
	}
}

// plainString reads a plain string value; null reports isNull.
func (s *scanner) plainString() (v []byte, isNull, ok bool) {
	s.space()
	if s.literal("null") {
		return nil, true, true
	}
	start := s.i
	plain, ok := s.str()
	if !ok || !plain {
		return nil, false, false
	}
	return s.b[start+1 : s.i-1], false, true
}

// end reports that only white space follows.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

var envelopeFields = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// parseEnvelopeFast decodes a well-formed JSON-RPC object into env (the
// caller's, so a frame's envelope is not allocated); its raw fields point
// into data. On false env holds nothing of use.
func parseEnvelopeFast(data []byte, env *envelope) bool {
	s := scanner{b: data}
	*env = envelope{}
	ok := s.fields(envelopeFields, func(key string) bool {
		switch key {
		case "jsonrpc":
			v, isNull, ok := s.plainString()
			if !ok || isNull {
				return false
			}
			env.JSONRPC = "2.0"
			if string(v) != "2.0" {
				env.JSONRPC = string(v)
			}
			return true
		case "method":
			v, isNull, ok := s.plainString()
			if !ok {
				return false
			}
			env.Method = nil
			if !isNull {
				env.Method = internMethod(v)
			}
			return true
		}
		start, ok := s.value(1)
		if !ok {
			return false
		}
		raw := data[start:s.i]
		switch key {
		case "id":
			env.ID = raw
		case "params":
			env.Params = raw
		case "result":
			env.Result = raw
		case "error":
			env.Error = raw
		}
		return true
	})
	return ok && s.end()
}

var publishFields = []string{"topic", "message", "ttl", "tag", "attestation"}

// span is where a plain string's value lies in the params it was read from;
// set is false when the member is absent or null.
type span struct {
	start, end int
	set        bool
}

// publishSpans are irn_publish params as the fast path reads them: the
// strings as spans of the params, so that the message is built with one
// allocation (conn.publishOne).
type publishSpans struct {
	topic, message, attestation span
	ttl                         float64
	hasTTL                      bool
	tag                         uint32
}

// parsePublishFast decodes irn_publish params.
func parsePublishFast(raw []byte) (p publishSpans, ok bool) {
	s := scanner{b: raw}
	ok = s.fields(publishFields, func(key string) bool {
		if key == "ttl" || key == "tag" {
			s.space()
			if s.literal("null") {
				if key == "ttl" {
					p.ttl, p.hasTTL = 0, false
				}
				return true
			}
			start := s.i
			if !s.num() {
				return false
			}
			tok := string(raw[start:s.i])
			if key == "ttl" {
				f, err := strconv.ParseFloat(tok, 64)
				if err != nil {
					return false
				}
				p.ttl, p.hasTTL = f, true
				return true
			}
			n, err := strconv.ParseUint(tok, 10, 32)
			if err != nil {
				return false
			}
			p.tag = uint32(n)
			return true
		}
		v, isNull, ok := s.plainString()
		if !ok {
			return false
		}
		sp := span{}
		if !isNull {
			sp = span{start: s.i - 1 - len(v), end: s.i - 1, set: true}
		}
		switch key {
		case "topic":
			p.topic = sp
		case "message":
			p.message = sp
		default:
			if sp.set {
				p.attestation = sp
			} // null leaves an earlier attestation, as encoding/json does
		}
		return true
	})
	return p, ok && s.end()
}

// methodNames are the methods clients send; their names are not allocated
// per frame.
var methodNames = []string{"irn_publish", "irn_subscribe", "irn_batchSubscribe", "irn_unsubscribe",
	"irn_batchUnsubscribe", "irn_batchPublish", "irn_fetchMessages", "irn_batchFetchMessages",
	"wc_proposeSession", "wc_approveSession"}

func internMethod(b []byte) *string {
	for i := range methodNames {
		if string(b) == methodNames[i] {
			return &methodNames[i]
		}
	}
	m := string(b)
	return &m
}

// asciiEqualFold reports whether b and s are equal ignoring ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
