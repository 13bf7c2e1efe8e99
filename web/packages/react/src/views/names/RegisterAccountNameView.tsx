import { useEffect, useId, useState, type FormEvent } from 'react'
import type { NameSuggestion } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { useNamesT } from './strings'
import { useNamesModule, useNamesState, useRegisterUnavailable } from './useNames'

/** How long typing pauses before the name is checked with latchd. */
const SUGGESTIONS_DELAY_MS = 250

/** The label of a full name (`alice.latch.test` → `alice`). */
const labelOf = (name: string) => name.split('.')[0] ?? name

/**
 * RegisterAccountName: the visitor types a name and reads the rules' messages
 * as they type, whether it is free and free names like it (spec §3); Register
 * has the wallet sign the registration and latchd record it (spec §4). A
 * failure keeps the form with the reason. An account that cannot register (not
 * the embedded wallet's, whose session latchd requires: spec §5) sees why
 * instead of a form.
 */
export { default as RegisterAccountNameSuccessView } from './RegisterAccountNameSuccessView'

export default function RegisterAccountNameView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const nt = useNamesT()
  const names = useNamesModule()
  const state = useNamesState(names)
  const ids = { input: useId(), status: useId() }
  const unavailable = useRegisterUnavailable(names)
  const [value, setValue] = useState('')
  const [suggestions, setSuggestions] = useState<{ for: string; list: readonly NameSuggestion[] }>()
  const [error, setError] = useState<string>()
  const label = value.trim().toLowerCase()
  const ruleError = names && label !== '' ? names.accountNameError(label, latch) : undefined

  useEffect(() => {
    if (!names || unavailable || label === '' || ruleError) return
    const abort = new AbortController()
    const timer = setTimeout(() => {
      names.getNameSuggestions(latch, label, { signal: abort.signal }).then(
        (list) => setSuggestions({ for: label, list }),
        (e: unknown) => {
          if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e))
        },
      )
    }, SUGGESTIONS_DELAY_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [latch, names, unavailable, label, ruleError])

  const current = suggestions?.for === label ? suggestions.list : undefined
  const wanted = current?.[0]
  const busy = state?.step === 'signing' || state?.step === 'registering'
  const canRegister = Boolean(names && !ruleError && wanted && !wanted.registered && !busy)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!names || !canRegister) return
    setError(undefined)
    names.registerName(latch, label).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
  }

  if (unavailable) {
    return (
      <div className="latch-view latch-register-name" data-testid="latch-view-RegisterAccountName" aria-label={t('view.RegisterAccountName')}>
        <p className="latch-error-text" role="alert" data-testid="latch-register-name-unavailable">
          {unavailable}
        </p>
        <p className="latch-subtitle">{nt('names.embeddedOnly')}</p>
      </div>
    )
  }

  const message = error ?? ruleError
  return (
    <form className="latch-view latch-register-name" data-testid="latch-view-RegisterAccountName" aria-label={t('view.RegisterAccountName')} onSubmit={submit} noValidate>
      <label className="latch-field-label" htmlFor={ids.input}>
        {nt('names.label')}
      </label>
      <input
        id={ids.input}
        className="latch-input"
        type="text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={nt('names.placeholder')}
        value={value}
        disabled={busy}
        aria-invalid={message ? true : undefined}
        aria-describedby={ids.status}
        onChange={(e) => {
          setValue(e.target.value)
          setError(undefined)
        }}
        data-testid="latch-register-name-input"
      />
      <div id={ids.status}>
        {message ? (
          <p className="latch-error-text" role="alert" data-testid="latch-register-name-error">
            {message}
          </p>
        ) : label !== '' && !wanted ? (
          <p className="latch-subtitle" data-testid="latch-register-name-checking">{nt('names.checking')}</p>
        ) : wanted ? (
          <p className="latch-subtitle" role="status" data-testid={wanted.registered ? 'latch-register-name-taken' : 'latch-register-name-available'}>
            {wanted.reason ?? nt(wanted.registered ? 'names.taken' : 'names.available', { name: wanted.name })}
          </p>
        ) : null}
      </div>
      {current && current.length > 1 ? (
        <div className="latch-name-suggestions" data-testid="latch-register-name-suggestions">
          <span className="latch-field-label">{nt('names.suggestions')}</span>
          {current.slice(1).filter((s) => !s.registered).map((s) => (
            <button
              key={s.name}
              type="button"
              className="latch-list-item"
              onClick={() => setValue(labelOf(s.name))}
              data-testid={`latch-register-name-suggestion-${labelOf(s.name)}`}
            >
              {s.name}
            </button>
          ))}
        </div>
      ) : null}
      {busy ? (
        <p className="latch-subtitle" role="status" data-testid={`latch-register-name-${state?.step}`}>
          {nt(state?.step === 'signing' ? 'names.signing' : 'names.registering')}
        </p>
      ) : null}
      <button type="submit" className="latch-primary-button" disabled={!canRegister} data-testid="latch-register-name-submit">
        {nt('names.register')}
      </button>
    </form>
  )
}
