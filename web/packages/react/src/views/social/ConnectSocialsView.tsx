import { SocialButtons } from './SocialLogin'

/** ConnectSocials: every social the project offers here (Connect's "More"), in its order. */
export default function ConnectSocialsView() {
  return (
    <div className="latch-view" data-testid="latch-connect-socials-view">
      <SocialButtons all />
    </div>
  )
}
