// Length budgets of the strings that sit in a fixed box: modal titles (the
// header between the back and close buttons), buttons and tabs. Measured in
// display width: a wide (CJK) character counts 2, a combining mark 0. The
// browser test (web/e2e/tests/i18n.test.mjs) then checks the rendered boxes.

/** Budget by key: an exact key wins over a pattern. */
const exact: Readonly<Record<string, number>> = {
  'button.connect': 22,
  'button.connecting': 22,
}

/** Budgets by pattern, first match wins. */
const patterns: ReadonlyArray<readonly [RegExp, number]> = [
  [/^view\./, 28],
  [/^button\./, 24],
  [/\.tab[A-Z]\w*$/, 14],
]

/** The width budget of a key, or undefined for free text (descriptions, errors) that wraps. */
export function budgetOf(key: string): number | undefined {
  const base = key.replace(/_(zero|one|two|few|many|other)$/, '')
  return exact[base] ?? patterns.find(([pattern]) => pattern.test(base))?.[1]
}

/** The display width of text: East Asian wide and fullwidth characters count 2, combining marks 0. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (/\p{Mn}|\p{Me}|\p{Cf}/u.test(char)) continue
    width +=
      (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6)
        ? 2
        : 1
  }
  return width
}
