// The WalletConnect SDK (@walletconnect/universal-provider 2.21.8, the last
// Apache-2.0 release). This module is only ever imported dynamically, so the
// SDK is a separate chunk that loads when the visitor picks WalletConnect or a
// stored session must be restored.
//
// The SDK talks to several hosts of its own. Each is turned off or replaced so
// the page contacts no host but the configured latchd:
// - the relay (wss://relay.walletconnect.org): `relayUrl` is latchd's relay;
// - telemetry (https://pulse.walletconnect.org/batch): `telemetryEnabled: false`
//   (the event client then never sends, and clears what an older page queued);
// - the Verify API (https://verify.walletconnect.org): the dapp side loads its
//   attestation page in a hidden iframe for every proposal and request, and
//   would fetch its public key to check incoming ones. 2.21.8 has no option
//   for this, so register/resolve are replaced by "no attestation" (wallets
//   then show the domain as unverified, which without a Verify server it is);
// - RPC and bundler (https://rpc.walletconnect.org/v1): used by the eip155
//   sub-provider for methods the wallet does not answer. The connector never
//   hands it such a request (see eip1193.ts) and its rpcMap points at latchd
//   besides; `disableProviderPing` stops it probing RPC URLs when a session
//   is restored. The one RPC call it makes by itself, the ERC-1271 check of
//   a smart-account wallet's one-click sign-in, is rerouted to latchd's RPC
//   proxy while the sign-in runs (rpcReroute.ts);
// - push (https://echo.walletconnect.com) is only used by wallets registering
//   a device token, never by a dapp.
import UniversalProvider from '@walletconnect/universal-provider'
import { withBuffer, withBufferSync } from './buffer'
import { withLatchdRpc } from './rpcReroute'
import type { UniversalProviderInit, UniversalProviderLike } from './types'

/** Storage prefix of the SDK's keys, so they never mix with another WalletConnect client on the page. */
const storagePrefix = 'latch'

/** initUniversalProvider creates the SDK's provider for latchd, with every third-party service off. */
export async function initUniversalProvider(init: UniversalProviderInit): Promise<UniversalProviderLike> {
  const provider = await UniversalProvider.init({
    projectId: init.projectId,
    relayUrl: init.relayUrl,
    metadata: init.metadata,
    telemetryEnabled: false,
    disableProviderPing: true,
    logger: init.logLevel,
    customStoragePrefix: storagePrefix,
  })
  const { verify } = provider.client.core
  verify.register = async () => ''
  // The SDK itself answers "nothing resolved" with undefined (its engine then marks the origin UNKNOWN);
  // the declared type forgets that case.
  verify.resolve = (async () => undefined) as unknown as typeof verify.resolve
  ignoreDeleteOfGoneSession(provider.client)
  // The text a CACAO's signature is over, exactly as the SDK (and the wallet) writes it: one-click sign-in sends
  // it to latchd for verification.
  // Both read the CACAO's ReCap and hash with Node's Buffer: the browser gets a stand-in for their duration.
  // The sign-in's signature check goes to latchd (rpcReroute.ts).
  const formatAuthMessage: UniversalProviderLike['formatAuthMessage'] = (cacao) =>
    withBufferSync(() => provider.client.formatAuthMessage({ request: cacao.p as never, iss: cacao.p.iss }))
  const authenticate = provider.authenticate.bind(provider)
  const authenticateWithBuffer: UniversalProviderLike['authenticate'] = (params) =>
    withBuffer(() => withLatchdRpc(init.apiUrl, () => authenticate(params as never))) as ReturnType<UniversalProviderLike['authenticate']>
  return Object.assign(provider, { formatAuthMessage, authenticate: authenticateWithBuffer }) as unknown as UniversalProviderLike
}

type SignClient = Awaited<ReturnType<typeof UniversalProvider.init>>['client']
type DeleteRequestHandler = (topic: string, payload: unknown) => Promise<void>

/**
 * sign-client 2.21.8 checks an incoming wc_sessionDelete without awaiting the
 * (async) check, so a delete that finds its session already gone — seen in
 * the browser tests when the wallet ends a session on a busy machine — turns
 * into an unhandled rejection in the page ("Record was recently deleted").
 * Such a delete has nothing left to do (no session, no key to answer with):
 * it is dropped before the SDK's handler runs. Newer SDK releases cannot be
 * used (their licence), so the fix lives here.
 */
function ignoreDeleteOfGoneSession(client: SignClient): void {
  const engine = client.engine as unknown as { onSessionDeleteRequest?: DeleteRequestHandler }
  const handle = engine.onSessionDeleteRequest
  if (typeof handle !== 'function') return
  engine.onSessionDeleteRequest = async (topic, payload) => {
    if (!client.session.keys.includes(topic)) return
    await handle(topic, payload)
  }
}
