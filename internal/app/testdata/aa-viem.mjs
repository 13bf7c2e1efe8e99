// Sends a sponsored user operation with viem's account-abstraction client,
// as a wallet would: a smart account of our LatchSmartAccountFactory
// (viem's toSmartAccount over its ABI), a bundler client and a paymaster
// client both pointed at latchd's RPC endpoint (ERC-7769 and ERC-7677).
// The first operation deploys the account and sends ether. Run by
// bundler_viem_test.go, which passes the endpoint, contracts, key and
// WEB_DIR (whose node_modules hold viem) in the environment and reads one
// JSON line.
import { createRequire } from "node:module";

const { WEB_DIR, CHAIN_ID, LATCHD_RPC, ENTRY_POINT, FACTORY, OWNER_KEY, TO } = process.env;
const req = createRequire(WEB_DIR + "/package.json");
const { createPublicClient, defineChain, encodeFunctionData, http, parseAbi, parseEther } = req("viem");
const { privateKeyToAccount } = req("viem/accounts");
const { createBundlerClient, createPaymasterClient, entryPoint07Abi, toSmartAccount } = req("viem/account-abstraction");

const chain = defineChain({
  id: Number(CHAIN_ID),
  name: "Latch Dev",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [LATCHD_RPC] } },
});
const client = createPublicClient({ chain, transport: http(LATCHD_RPC) });
const owner = privateKeyToAccount(OWNER_KEY);
const factoryAbi = parseAbi([
  "function createAccount(address owner, uint256 salt) returns (address)",
  "function getAddress(address owner, uint256 salt) view returns (address)",
]);
const accountAbi = parseAbi([
  "function execute(address dest, uint256 value, bytes data)",
  "function executeBatch(address[] dest, uint256[] value, bytes[] data)",
]);
const address = await client.readContract({ address: FACTORY, abi: factoryAbi, functionName: "getAddress", args: [owner.address, 0n] });

const account = await toSmartAccount({
  client,
  entryPoint: { abi: entryPoint07Abi, address: ENTRY_POINT, version: "0.7" },
  async getAddress() {
    return address;
  },
  async getFactoryArgs() {
    return { factory: FACTORY, factoryData: encodeFunctionData({ abi: factoryAbi, functionName: "createAccount", args: [owner.address, 0n] }) };
  },
  async encodeCalls(calls) {
    if (calls.length === 1) {
      const c = calls[0];
      return encodeFunctionData({ abi: accountAbi, functionName: "execute", args: [c.to, c.value ?? 0n, c.data ?? "0x"] });
    }
    return encodeFunctionData({
      abi: accountAbi,
      functionName: "executeBatch",
      args: [calls.map((c) => c.to), calls.map((c) => c.value ?? 0n), calls.map((c) => c.data ?? "0x")],
    });
  },
  async getStubSignature() {
    return "0x" + "11".repeat(64) + "1b";
  },
  async signMessage({ message }) {
    return owner.signMessage({ message });
  },
  async signTypedData(td) {
    return owner.signTypedData(td);
  },
  async signUserOperation(op) {
    const { chainId = chain.id, ...userOperation } = op;
    const { getUserOperationHash } = req("viem/account-abstraction");
    const hash = getUserOperationHash({
      chainId,
      entryPointAddress: ENTRY_POINT,
      entryPointVersion: "0.7",
      userOperation: { ...userOperation, sender: address },
    });
    return owner.signMessage({ message: { raw: hash } });
  },
});

const bundler = createBundlerClient({
  account,
  client,
  chain,
  transport: http(LATCHD_RPC),
  paymaster: createPaymasterClient({ transport: http(LATCHD_RPC) }),
});
const hash = await bundler.sendUserOperation({ calls: [{ to: TO, value: parseEther("0.001") }] });
const receipt = await bundler.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 30_000 });
const code = await client.getCode({ address, blockNumber: receipt.receipt.blockNumber });
console.log(JSON.stringify({ hash, sender: address, success: receipt.success, paymaster: receipt.paymaster, deployed: !!code && code !== "0x" }));
