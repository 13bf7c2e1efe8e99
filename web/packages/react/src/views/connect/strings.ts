// The Connect view's own strings (English) beyond core's catalogue. The view is
// part of the modal's dialog chunk, so only what it shows itself lives here.
export const connectStrings = {
  'connect.continueWithWallet': 'Continue with a wallet',
} as const
