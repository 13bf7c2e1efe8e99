// The social buttons' strings (English), in their lazy chunk like the e-mail
// views' (core's catalogue is part of every first load).
export const socialStrings = {
  label: 'Social login',
  continueWith: 'Continue with {provider}',
  more: 'More',
  popupOpen: 'Waiting for the login window',
  connecting: 'Logging in…',
  farcasterPreparing: 'Preparing the Farcaster sign-in…',
  farcasterScan: 'Scan this QR code with your phone to sign in with Farcaster',
  farcasterOpen: 'Open Farcaster on this device',
  tryAgain: 'Try again',
} as const
