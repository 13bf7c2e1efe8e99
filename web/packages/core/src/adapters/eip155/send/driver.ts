// The eip155 send driver: what the send form asks of an EVM chain. The
// transfer becomes a transaction (a native transfer, or an ERC-20 `transfer`
// call); its fee estimate and the balances it is checked against are read
// through the wagmi config (latchd's RPC proxy), and it goes out through the
// connected wallet as eth_sendTransaction.
import type { Config } from '@wagmi/core'
import { encodeFunctionData, formatUnits, type Address, type Hex } from 'viem'
import { isNativeBalance, tokenContractAddress } from '../../../account/format'
import type { TokenBalance } from '../../../account/types'
import { toSendError } from '../../../send/errors'
import type { FeeEstimate, SendContext } from '../../../send/types'
import { assertFeeFields, type FeeOverrides } from '../../../send/validation'
import type { SendDriver, Transfer } from '../../types'
import { createEnsResolver } from './ens'
import * as rpc from './rpc'

/** The JSON-RPC calls the driver makes, for the adapter's own sendTransaction (same chunk). */
export { rpc }

/** The address latchd's balance and price routes use for a network's native coin. */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** An eip155 transaction request before gas and fees. */
export type EvmRequest = { to: Address; value: bigint; data?: Hex }

/** createEip155SendDriver binds the eip155 send driver to a wagmi config. */
export function createEip155SendDriver(config: Config): SendDriver {
  return {
    readBalances: (ctx, token) => readSendBalances(config, ctx, token),
    estimateFee: (ctx, transfer, overrides, balances) => estimateSendFee(config, ctx, buildRequest(transfer), overrides, balances),
    async send(ctx, transfer, fee) {
      const fees: rpc.EvmFees =
        fee.maxFeePerGas !== undefined ? { maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas ?? 0n } : { gasPrice: fee.gasPrice ?? 0n }
      // One wallet call for both: eth_sendTransaction, with `transfer(to, amount)` as data for a token.
      return rpc.sendTransaction(config, ctx.chain.id, { from: ctx.address as Address, ...buildRequest(transfer), gas: fee.gas, fees })
    },
    waitForReceipt: (chainId, hash, options) => rpc.waitForReceipt(config, chainId, hash as Hex, options),
    nativeTokenId: (chainId) => `eip155:${chainId}:${NATIVE_TOKEN_ADDRESS}`,
    nameResolver: () => createEnsResolver(config),
  }
}

/** buildRequest builds the eip155 transaction for a validated transfer. */
export function buildRequest({ token, to, amount }: Transfer): EvmRequest {
  if (isNativeBalance(token)) return { to: to as Address, value: amount }
  return {
    to: tokenContractAddress(token.address!) as Address,
    value: 0n,
    data: encodeFunctionData({ abi: rpc.erc20TransferAbi, functionName: 'transfer', args: [to as Address, amount] }),
  }
}

function nativePrice(ctx: SendContext, balances: readonly TokenBalance[]): number | undefined {
  const native = balances.find((b) => isNativeBalance(b) && b.chainId === `eip155:${ctx.chain.id}`)
  return native && native.price > 0 ? native.price : undefined
}

/** estimateSendFee is gas × price for a request (spec: fee estimate), honouring caller fee overrides; USD from the balance list's price. */
async function estimateSendFee(
  config: Config,
  ctx: SendContext,
  request: EvmRequest,
  overrides: FeeOverrides,
  balances: readonly TokenBalance[],
): Promise<FeeEstimate> {
  assertFeeFields(overrides)
  const chainId = ctx.chain.id
  let gas: bigint
  let fees: rpc.EvmFees
  let current: bigint
  try {
    gas = overrides.gas ?? (await rpc.estimateGas(config, chainId, { from: ctx.address as Address, ...request }))
    if (overrides.gasPrice !== undefined) fees = { gasPrice: overrides.gasPrice }
    else if (overrides.maxFeePerGas !== undefined) {
      fees = { maxFeePerGas: overrides.maxFeePerGas, maxPriorityFeePerGas: overrides.maxPriorityFeePerGas ?? 0n }
    } else fees = await rpc.estimateFees(config, chainId)
    current = await rpc.gasPrice(config, chainId)
  } catch (error) {
    throw toSendError(error, 'estimate')
  }
  const cap = 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas
  const expectedPrice = current < cap ? current : cap
  const { decimals, symbol } = ctx.chain.nativeCurrency
  const expected = gas * expectedPrice
  const price = nativePrice(ctx, balances)
  const formatted = formatUnits(expected, decimals)
  return {
    gas,
    ...fees,
    expected,
    worstCase: gas * cap,
    nativeSymbol: symbol,
    nativeDecimals: decimals,
    formatted,
    usd: price === undefined ? undefined : Number(formatted) * price,
  }
}

/** readSendBalances reads the native and token balances on-chain at review time rather than trusting a 30 s cache. */
async function readSendBalances(config: Config, ctx: SendContext, token: TokenBalance): Promise<{ native: bigint; token: bigint }> {
  const native = await rpc.nativeBalance(config, ctx.chain.id, ctx.address as Address)
  if (isNativeBalance(token)) return { native, token: native }
  const balance = await rpc.tokenBalance(config, ctx.chain.id, tokenContractAddress(token.address!) as Address, ctx.address as Address)
  return { native, token: balance }
}
