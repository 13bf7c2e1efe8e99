import { Fragment, useId, type ReactNode } from 'react'
import { useLatchInstance } from '../../context'
import { useStrings } from '../../hooks/useT'
import { legalStrings } from './legal/strings'

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
  const s = useStrings(legalStrings)
  const textId = useId()
  const terms = termsConditionsUrl ? <LegalLink href={termsConditionsUrl} label={s('legal.terms')} testId="latch-legal-terms" /> : null
  const privacy = privacyPolicyUrl ? <LegalLink href={privacyPolicyUrl} label={s('legal.privacy')} testId="latch-legal-privacy" /> : null
  const links = terms && privacy ? place(s('legal.both'), { terms, privacy }) : (terms ?? privacy)
  const text = <span id={textId}>{place(s(checkbox ? 'legal.iAgree' : 'legal.byConnecting'), { links })}</span>
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

/**
 * place fills a sentence's `{name}` placeholders with elements (the links), so a
 * translation can put them where its grammar wants; the rest stays text.
 */
function place(template: string, parts: Record<string, ReactNode>): ReactNode {
  return template.split(/\{(\w+)\}/).map((piece, i) => <Fragment key={i}>{i % 2 ? (parts[piece] ?? `{${piece}}`) : piece}</Fragment>)
}

function LegalLink({ href, label, testId }: { href: string; label: string; testId: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {label}
    </a>
  )
}
