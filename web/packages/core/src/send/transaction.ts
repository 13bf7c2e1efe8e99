// The eip155 transaction of a send: the request (a native transfer, or an
// ERC-20 `transfer` call), its fee estimate and the balances it is checked
// against, all read through the wagmi config (latchd's RPC proxy).
import type { Config } from '@wagmi/core'
import { encodeFunctionData, formatUnits, type Address, type Hex } from 'viem'
import { isNativeBalance, tokenContractAddress } from '../account/format'
import type { TokenBalance } from '../account/types'
import { toSendError } from './errors'
import * as evm from './evm'
import type { FeeEstimate, SendContext } from './types'
import { assertFeeFields, type FeeOverrides } from './validation'

/** An eip155 transaction request before gas and fees. */
export type EvmRequest = { to: Address; value: bigint; data?: Hex }

/** buildRequest builds the eip155 transaction for a validated send. */
export function buildRequest(token: TokenBalance, to: string, amount: bigint): EvmRequest {
  if (isNativeBalance(token)) return { to: to as Address, value: amount }
  return {
    to: tokenContractAddress(token.address!) as Address,
    value: 0n,
    data: encodeFunctionData({ abi: evm.erc20TransferAbi, functionName: 'transfer', args: [to as Address, amount] }),
  }
}

/** networkBalanceInUsd is the network's native balance in USD with 2 decimals, from the balance list. */
export function networkBalanceInUsd(balances: readonly TokenBalance[]): string | undefined {
  const native = balances.find((b) => isNativeBalance(b))
  if (!native) return undefined
  const value = typeof native.value === 'number' ? native.value : Number(native.quantity.numeric) * native.price
  return Number.isFinite(value) ? value.toFixed(2) : undefined
}

function nativePrice(ctx: SendContext, balances: readonly TokenBalance[]): number | undefined {
  const native = balances.find((b) => isNativeBalance(b) && b.chainId === `eip155:${ctx.chain.id}`)
  return native && native.price > 0 ? native.price : undefined
}

/** estimateSendFee is gas × price for a request (spec: fee estimate), honouring caller fee overrides; USD from the balance list's price. */
export async function estimateSendFee(
  config: Config,
  ctx: SendContext,
  request: EvmRequest,
  overrides: FeeOverrides,
  balances: readonly TokenBalance[],
): Promise<FeeEstimate> {
  assertFeeFields(overrides)
  const chainId = ctx.chain.id
  let gas: bigint
  let fees: evm.EvmFees
  let current: bigint
  try {
    gas = overrides.gas ?? (await evm.estimateGas(config, chainId, { from: ctx.address as Address, ...request }))
    if (overrides.gasPrice !== undefined) fees = { gasPrice: overrides.gasPrice }
    else if (overrides.maxFeePerGas !== undefined) {
      fees = { maxFeePerGas: overrides.maxFeePerGas, maxPriorityFeePerGas: overrides.maxPriorityFeePerGas ?? 0n }
    } else fees = await evm.estimateFees(config, chainId)
    current = await evm.gasPrice(config, chainId)
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
export async function readSendBalances(config: Config, ctx: SendContext, token: TokenBalance): Promise<{ native: bigint; token: bigint }> {
  const native = await evm.nativeBalance(config, ctx.chain.id, ctx.address as Address)
  if (isNativeBalance(token)) return { native, token: native }
  const balance = await evm.tokenBalance(config, ctx.chain.id, tokenContractAddress(token.address!) as Address, ctx.address as Address)
  return { native, token: balance }
}
