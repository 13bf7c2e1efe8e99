import { useId, type ReactNode } from 'react'
import { useLatchInstance } from '../../context'

export type LegalConsentProps = {
  /** Ask for consent with a checkbox (features.legalCheckbox); otherwise connecting is the consent. */
  checkbox: boolean
  agreed: boolean
  onAgree: (agreed: boolean) => void
}

/**
 * The Connect view's legal line: links to the app's terms and privacy policy (options.termsConditionsUrl,
 * options.privacyPolicyUrl) and, with `checkbox`, a real checkbox whose accessible name is the whole line.
 * A chunk of its own: pages without legal URLs never load it.
 */
export default function LegalConsent({ checkbox, agreed, onAgree }: LegalConsentProps) {
  const { termsConditionsUrl, privacyPolicyUrl } = useLatchInstance()._internal.opts
  const textId = useId()
  const links: ReactNode[] = []
  if (termsConditionsUrl) links.push(<LegalLink key="terms" href={termsConditionsUrl} label="Terms of Service" testId="latch-legal-terms" />)
  if (privacyPolicyUrl) links.push(<LegalLink key="privacy" href={privacyPolicyUrl} label="Privacy Policy" testId="latch-legal-privacy" />)
  const text = (
    <span id={textId}>
      {checkbox ? 'I agree to the ' : 'By connecting a wallet, you agree to the '}
      {links.length === 2 ? [links[0], ' and ', links[1]] : links}
    </span>
  )
  if (!checkbox) {
    return (
      <p className="latch-legal" data-testid="latch-legal">
        {text}
      </p>
    )
  }
  return (
    <div className="latch-legal latch-legal-checkbox" data-testid="latch-legal">
      <input
        type="checkbox"
        data-testid="latch-legal-checkbox"
        aria-labelledby={textId}
        checked={agreed}
        onChange={(event) => onAgree(event.target.checked)}
      />
      {text}
    </div>
  )
}

function LegalLink({ href, label, testId }: { href: string; label: string; testId: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {label}
    </a>
  )
}
