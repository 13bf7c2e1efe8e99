import { useMemo } from 'react'
import { encode } from 'uqr'
import { networkCaipId, networksForAccount } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { WalletImage } from '../connect/WalletImage'

/** The address as a QR code: one SVG path of the dark modules, drawn in the theme's foreground colour. */
function AddressQr({ value, label }: { value: string; label: string }) {
  const { path, size } = useMemo(() => {
    const qr = encode(value, { ecc: 'M', border: 2 })
    let d = ''
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`
      }),
    )
    return { path: d, size: qr.size }
  }, [value])
  return (
    <svg className="latch-qr" data-testid="latch-receive-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={200} height={200} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  )
}

/** The Receive view (WalletReceive): the address as a QR code and as text, a copy button, and the networks it is valid on. */
export function ReceiveView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const { address, caipAddress, networks } = useLatchSelector((s) => ({
    address: s.account.address,
    caipAddress: s.account.caipAddress,
    networks: s.networks,
  }))
  if (!address) return null
  // The account's namespace decides (e.g. an EVM address is the same account on every EVM network configured).
  const valid = networksForAccount(caipAddress, networks)
  const copy = async () => {
    try {
      await latch.copyToClipboard(address)
    } catch {
      // core reports clipboard failures itself
    }
  }
  return (
    <div className="latch-view latch-receive" data-testid="latch-view-WalletReceive">
      <AddressQr value={address} label={t('receive.qrLabel')} />
      <code className="latch-receive-address" data-testid="latch-receive-address" dir="ltr">
        {address}
      </code>
      <button type="button" className="latch-secondary-button" data-testid="latch-receive-copy" onClick={() => void copy()}>
        {t('receive.copy')}
      </button>
      <p className="latch-subtitle">{t('receive.description')}</p>
      <ul className="latch-receive-networks" aria-label={t('receive.networks')} data-testid="latch-receive-networks">
        {valid.map((n) => (
          <li key={n.id} title={n.name} data-testid={`latch-receive-network-${n.id}`}>
            <WalletImage src={latch.assetImageUrl(networkCaipId(n))} name={n.name} size={24} />
            <span>{n.name}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

export default ReceiveView
