import { useLatchInstance } from '../../context'
import { useStrings } from '../../hooks/useT'
import { useModalT } from '../../components/LatchModal/strings'
import { helpStrings } from './strings'

// Short explanations for visitors new to wallets and networks, opened from the Connect view
// ("Haven't got a wallet?") and the Networks view ("What is a network?"). One lazy chunk for both.

type HelpKey = keyof typeof helpStrings
type Point = { title: HelpKey; text: HelpKey }

const walletPoints: readonly Point[] = [
  { title: 'help.walletKeysTitle', text: 'help.walletKeysText' },
  { title: 'help.walletLoginTitle', text: 'help.walletLoginText' },
  { title: 'help.walletUseTitle', text: 'help.walletUseText' },
]

const networkPoints: readonly Point[] = [
  { title: 'help.networkLedgerTitle', text: 'help.networkLedgerText' },
  { title: 'help.networkTokensTitle', text: 'help.networkTokensText' },
  { title: 'help.networkSwitchTitle', text: 'help.networkSwitchText' },
]

function Points({ points }: { points: readonly Point[] }) {
  const s = useStrings(helpStrings)
  return (
    <ul className="latch-list">
      {points.map((p) => (
        <li key={p.title} className="latch-list-item latch-help-point">
          <span>
            <strong className="latch-list-item-name">{s(p.title)}</strong>
            <span className="latch-subtitle" style={{ display: 'block' }}>
              {s(p.text)}
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
  const t = useModalT()
  return (
    <div className="latch-view" data-testid="latch-view-WhatIsAWallet">
      <Points points={walletPoints} />
      <button type="button" className="latch-secondary-button" data-testid="latch-get-wallet" onClick={() => latch.push('AllWallets')}>
        {t('button.getWallet')}
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
