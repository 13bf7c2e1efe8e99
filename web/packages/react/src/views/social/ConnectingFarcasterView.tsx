import { useEffect, useState } from 'react'
import { loadEmbeddedActions, type EmbeddedActions } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useStrings } from '../../hooks/useT'
import { useEmbeddedState } from '../embedded/useEmbeddedState'
import { CopyLinkButton, WalletConnectQrCode } from '../walletconnect/ConnectingWalletConnectParts'
import { socialStrings } from './strings'

/**
 * ConnectingFarcaster (spec §2's Farcaster view): the farcaster:// URI of the
 * frame's channel as a QR code for the visitor's Farcaster client, with its
 * pending and error states. Core's connectFarcaster runs the sign-in (the
 * social buttons start it; opened on its own, the view starts it); leaving
 * the view unconnected resets the auth provider there.
 */
export default function ConnectingFarcasterView() {
  const latch = useLatchInstance()
  const s = useStrings(socialStrings)
  const state = useEmbeddedState()
  const [actions, setActions] = useState<EmbeddedActions>()
  useEffect(() => {
    let current = true
    void loadEmbeddedActions().then((a) => current && setActions(() => a))
    return () => {
      current = false
    }
  }, [])
  const social = state?.social
  const mine = social?.provider === 'farcaster'
  // Opened directly (open({view: 'ConnectingFarcaster'})): start the sign-in here.
  useEffect(() => {
    if (actions && !mine) void actions.connectFarcaster(latch)
    // Only once the actions are loaded; later states are the sign-in's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions])
  const step = mine ? social.step : 'popup'
  const uri = mine ? social.uri : undefined
  return (
    <div className="latch-view latch-connecting latch-wc" data-testid="latch-farcaster-view">
      <WalletConnectQrCode uri={step === 'error' ? undefined : uri} />
      {step === 'error' ? (
        <>
          <p className="latch-error-text" role="alert" data-testid="latch-farcaster-error">
            {social?.error}
          </p>
          <button type="button" className="latch-secondary-button" disabled={!actions} onClick={() => actions && void actions.connectFarcaster(latch)} data-testid="latch-farcaster-retry">
            {s('social.tryAgain')}
          </button>
        </>
      ) : (
        <p className="latch-subtitle" role="status" data-testid="latch-farcaster-status" data-step={step}>
          {step === 'qr' ? s('social.farcasterScan') : step === 'popup' ? s('social.farcasterPreparing') : s('social.connecting')}
        </p>
      )}
      {uri && step === 'qr' ? (
        <a className="latch-secondary-button" href={uri} data-testid="latch-farcaster-open">
          {s('social.farcasterOpen')}
        </a>
      ) : null}
      {uri && step === 'qr' ? <CopyLinkButton uri={uri} /> : null}
    </div>
  )
}
