// ?headless=1: the demo's own connect UI over useLatchWallets (the modal never opens) and two wallet buttons. The
// browser test (e2e/tests/headless.test.mjs) connects through each.
import { useState } from 'react'
import { useLatchWallets, WalletButton } from '@latchkit/react'

export default function Headless() {
  const { wallets, isInitialized, isFetchingWallets, count, page, fetchNextPage, search, connect, connectingWallet, wcUri, wcError, resetWcUri } =
    useLatchWallets()
  const [query, setQuery] = useState('')
  const [error, setError] = useState<string | undefined>(undefined)
  return (
    <section data-testid="demo-headless" style={{ marginTop: 24 }}>
      <h2>Headless connect</h2>
      <p>
        This page's own wallet list ({isInitialized ? `${wallets.length} shown` : 'loading'}
        {page ? `, registry page ${page} of ${Math.ceil(count / 40)}` : ''}), connecting without the modal.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void search(query)
        }}
      >
        <input data-testid="demo-headless-search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="Search wallets" />
        <button type="submit">Search</button>
        <button type="button" data-testid="demo-headless-next-page" disabled={isFetchingWallets} onClick={() => void fetchNextPage()}>
          More wallets
        </button>
      </form>
      <ul data-testid="demo-headless-wallets">
        {wallets.map((wallet) => (
          <li key={wallet.id}>
            <button
              data-testid={`demo-headless-wallet-${wallet.id}`}
              disabled={connectingWallet !== undefined}
              onClick={() => {
                setError(undefined)
                connect(wallet).catch((e: Error) => setError(e.message))
              }}
            >
              {wallet.name}
              {wallet.installed ? ' (installed)' : ''}
            </button>
          </li>
        ))}
      </ul>
      {wcUri ? (
        <p>
          Pairing link for your wallet: <code data-testid="demo-headless-wc-uri">{wcUri}</code>{' '}
          <button data-testid="demo-headless-wc-reset" onClick={resetWcUri}>
            Cancel
          </button>
        </p>
      ) : null}
      {wcError ? <p data-testid="demo-headless-wc-error">WalletConnect: {wcError.message}</p> : null}
      {error ? <p data-testid="demo-headless-error">{error}</p> : null}
      <div style={{ display: 'flex', gap: 12 }}>
        <WalletButton wallet="metamask" />
        <WalletButton wallet="walletConnect" />
      </div>
    </section>
  )
}
