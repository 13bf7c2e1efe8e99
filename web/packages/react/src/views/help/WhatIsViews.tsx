import { useLatchInstance } from '../../context'

// Short explanations for visitors new to wallets and networks, opened from the Connect view
// ("Haven't got a wallet?") and the Networks view ("What is a network?"). One lazy chunk for both.

type Point = { title: string; text: string }

const walletPoints: readonly Point[] = [
  {
    title: 'Your keys, your account',
    text: 'A wallet holds the keys that prove an address is yours. Apps never see those keys: they ask the wallet, and the wallet asks you.',
  },
  {
    title: 'One login for many apps',
    text: 'Connecting a wallet is how you sign in here. The same wallet works with other apps, without a new password for each.',
  },
  {
    title: 'Send, receive and sign',
    text: 'With it you hold tokens, send and receive them, and approve each transaction or message yourself before anything happens.',
  },
]

const networkPoints: readonly Point[] = [
  {
    title: 'A shared ledger',
    text: 'A network is a blockchain: a public record of balances and transactions that many computers keep in agreement.',
  },
  {
    title: 'Each has its own tokens and fees',
    text: 'Your address can be the same on several networks, but balances are separate on each, and fees are paid in its own currency.',
  },
  {
    title: 'Switch when an app asks',
    text: 'An app works on the networks it supports. Pick one of them here, and your wallet moves to it after you approve.',
  },
]

function Points({ points }: { points: readonly Point[] }) {
  return (
    <ul className="latch-list">
      {points.map((p) => (
        <li key={p.title} className="latch-list-item latch-help-point">
          <span>
            <strong className="latch-list-item-name">{p.title}</strong>
            <span className="latch-subtitle" style={{ display: 'block' }}>
              {p.text}
            </span>
          </span>
        </li>
      ))}
    </ul>
  )
}

/** What is a wallet? Three short points, and the way to the full list of wallets. */
export function WhatIsAWalletView() {
  const latch = useLatchInstance()
  return (
    <div className="latch-view" data-testid="latch-view-WhatIsAWallet">
      <Points points={walletPoints} />
      <button type="button" className="latch-secondary-button" data-testid="latch-get-wallet" onClick={() => latch.push('AllWallets')}>
        Get a wallet
      </button>
    </div>
  )
}

/** What is a network? Three short points; back leads to the Networks view. */
export function WhatIsANetworkView() {
  return (
    <div className="latch-view" data-testid="latch-view-WhatIsANetwork">
      <Points points={networkPoints} />
    </div>
  )
}
