package app

import (
	"io"
	"testing"
	"time"
)

// TestRelaySettings: each relay flag reaches the broker or socket limit it
// names.
func TestRelaySettings(t *testing.T) {
	var cfg Config
	fs, finish := flagSet("serve", &cfg, io.Discard)
	args := []string{
		"--relay-mailbox-size", "7", "--relay-broker-max-bytes", "9000000", "--relay-broker-max-topics", "11",
		"--relay-max-client-bytes", "8000000", "--relay-max-message-bytes", "4096", "--relay-max-ttl", "2h",
		"--relay-max-topics", "13", "--relay-publish-rate", "17", "--relay-max-conns-per-ip", "19",
		"--relay-max-socket-buffer", "700000", "--relay-fragment-timeout", "3s", "--relay-max-unfinished-bytes", "900000",
	}
	if err := parseFlags(fs, args, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	b, l := relaySettings(cfg)
	if b.MaxMessagesPerTopic != 7 || b.MaxBytes != 9000000 || b.MaxTopics != 11 || b.MaxOwnerBytes != 8000000 {
		t.Errorf("broker settings %+v", b)
	}
	if l.MaxMessageBytes != 4096 || l.MaxTTL != 2*time.Hour || l.MaxTopicsPerConn != 13 || l.PublishRate != 17 ||
		l.MaxConnsPerIP != 19 || l.MaxMessagesPerTopic != 7 || l.MaxSocketBuffer != 700000 ||
		l.FragmentTimeout != 3*time.Second || l.MaxUnfinishedBytes != 900000 {
		t.Errorf("socket limits %+v", l)
	}
}
