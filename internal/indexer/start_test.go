package indexer

import (
	"strings"
	"testing"
)

func TestParseStart(t *testing.T) {
	tests := []struct {
		in      string
		want    Start
		wantErr string
	}{
		{in: "eip155:1=19000000", want: Start{Network: "eip155:1", ChainID: 1, Block: 19000000}},
		{in: "eip155:8453=0", want: Start{Network: "eip155:8453", ChainID: 8453}},
		{in: "eip155:10=head", want: Start{Network: "eip155:10", ChainID: 10, AtHead: true}},
		{in: "eip155:1", wantErr: "want <eip155 network id>=<start block|head>"},
		{in: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=head", wantErr: "want <eip155 network id>=<start block|head>"},
		{in: "eip155:01=head", wantErr: "want <eip155 network id>=<start block|head>"},
		{in: "=head", wantErr: "want <eip155 network id>=<start block|head>"},
		{in: "eip155:1=", wantErr: "the start block must be a number or head"},
		{in: "eip155:1=-1", wantErr: "the start block must be a number or head"},
		{in: "eip155:1=latest", wantErr: "the start block must be a number or head"},
		{in: "eip155:1=9223372036854775808", wantErr: "the start block must be a number or head"}, // 2^63
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseStart(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "--index-network ") {
					t.Fatalf("ParseStart(%q) = %+v, %v; want error %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseStart(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}
