// The legal line's strings (English), in LegalConsent's lazy chunk: pages
// without terms or privacy URLs never load them. `{links}` is the one link or
// `legal.both`; the links themselves are elements placed into the sentence.
export const legalStrings = {
  'legal.byConnecting': 'By connecting a wallet, you agree to the {links}',
  'legal.iAgree': 'I agree to the {links}',
  'legal.both': '{terms} and {privacy}',
  'legal.terms': 'Terms of Service',
  'legal.privacy': 'Privacy Policy',
} as const
