// Resolves names with viem's ENS actions on a dev chain, as a dapp would:
// getEnsAddress and getEnsText call the chain's universal resolver, follow
// its OffchainLookup through viem's local batch gateway to latchd's names
// gateway, and return what the resolver's callback verified. Run by
// names_viem_test.go, which passes the chain and WEB_DIR (whose
// node_modules hold viem) in the environment and reads one JSON line.
import { createRequire } from "node:module";

const { WEB_DIR, CHAIN_ID, RPC_URL, UNIVERSAL_RESOLVER, NAME, MISSING } = process.env;
const { createPublicClient, defineChain, http } = createRequire(WEB_DIR + "/package.json")("viem");
const chain = defineChain({
  id: Number(CHAIN_ID),
  name: "Latch Dev",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [RPC_URL] } },
  contracts: { ensUniversalResolver: { address: UNIVERSAL_RESOLVER } },
});
const client = createPublicClient({ chain, transport: http() });
const address = await client.getEnsAddress({ name: NAME });
const coinAddress = await client.getEnsAddress({ name: NAME, coinType: 0x80000000 + Number(CHAIN_ID) });
const avatar = await client.getEnsText({ name: NAME, key: "avatar" });
const missing = await client.getEnsAddress({ name: MISSING });
console.log(JSON.stringify({ address, coinAddress, avatar, missing }));
