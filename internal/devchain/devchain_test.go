package devchain

import (
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestFeedAddresses(t *testing.T) {
	usdc := common.HexToAddress("0x00000000000000000000000000000000000000c1")
	ethFeed, usdcFeed := common.HexToAddress("0x00000000000000000000000000000000000000f1"), common.HexToAddress("0x00000000000000000000000000000000000000f2")
	chains := []Chain{
		{CAIPNetworkID: "eip155:31337", PriceFeeds: []PriceFeed{
			{Symbol: "ETH", Address: ethFeed},
			{Symbol: "USDC", Token: &usdc, Address: usdcFeed},
		}},
		{CAIPNetworkID: "eip155:31338"},
	}
	got := FeedAddresses(chains)
	want := map[string]map[string]string{
		"eip155:31337": {"ETH": ethFeed.Hex(), "USDC": usdcFeed.Hex()},
		"eip155:31338": {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FeedAddresses = %v, want %v", got, want)
	}
}
