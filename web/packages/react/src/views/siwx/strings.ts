// SIWXSignMessage's own strings (English, spec §2/§8). They live in the
// view's lazy chunk rather than in core's catalogue, which every page loads.
export const siwxStrings = {
  'siwx.title': '{name} needs to connect to your wallet',
  'siwx.description': 'Sign this message to prove you own this wallet and proceed.',
  'siwx.descriptionRequired': 'Sign this message to prove you own this wallet and proceed. Canceling will disconnect you.',
  'siwx.sign': 'Sign',
  'siwx.checking': 'Checking your sign-in…',
  'siwx.thisApp': 'This app',
} as const
