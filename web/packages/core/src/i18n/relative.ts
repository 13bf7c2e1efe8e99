// The rounding of a history row's age (spec §9, AppKit's labels, dayjs's
// thresholds), shared by the English labels and every locale's Intl format.

/** A unit of relativeParts. */
export type RelativeUnit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year'

/**
 * relativeParts rounds the time since `date`: under 45 s N seconds, under 90 s
 * 1 minute, under 45 min N minutes, under 90 min 1 hour, under 22 h N hours,
 * under 36 h 1 day, under 26 d N days, under 46 d 1 month, under 11 months N
 * months (at least 2), under 18 months 1 year, else N years (at least 2). A
 * date in the future counts as now.
 */
export function relativeParts(date: Date, now: Date): [number, RelativeUnit] {
  const seconds = Math.max(0, (now.getTime() - date.getTime()) / 1000)
  const minutes = seconds / 60
  const hours = minutes / 60
  const days = hours / 24
  const months = days / 30.4375
  const years = days / 365.25
  if (seconds < 45) return [Math.round(seconds), 'second']
  if (seconds < 90) return [1, 'minute']
  if (minutes < 45) return [Math.round(minutes), 'minute']
  if (minutes < 90) return [1, 'hour']
  if (hours < 22) return [Math.round(hours), 'hour']
  if (hours < 36) return [1, 'day']
  if (days < 26) return [Math.round(days), 'day']
  if (days < 46) return [1, 'month']
  if (months < 11) return [Math.max(2, Math.round(months)), 'month']
  if (months < 18) return [1, 'year']
  return [Math.max(2, Math.round(years)), 'year']
}
