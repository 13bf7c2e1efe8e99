// SIWXSignMessage's own strings (English, spec §2/§8). They live in the
// view's lazy chunk rather than in core's catalogue, which every page loads.
export const siwxStrings = {
  title: '{name} needs to connect to your wallet',
  description: 'Sign this message to prove you own this wallet and proceed.',
  descriptionRequired: 'Sign this message to prove you own this wallet and proceed. Canceling will disconnect you.',
  sign: 'Sign',
  checking: 'Checking your sign-in…',
  thisApp: 'This app',
} as const
