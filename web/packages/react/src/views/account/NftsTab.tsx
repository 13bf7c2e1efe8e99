import { useModalT } from '../../components/LatchModal/strings'

/** The NFTs tab (spec §2). latchd lists no NFT holdings yet, so the tab says so; NFT transfers show under Activity. */
export function NftsTab() {
  const t = useModalT()
  return (
    <div className="latch-empty" data-testid="latch-nfts-empty">
      <p className="latch-title">{t('account.noNfts')}</p>
      <p className="latch-subtitle">{t('account.noNftsDescription')}</p>
    </div>
  )
}
