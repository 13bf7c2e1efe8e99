// The social buttons' strings (English), in their lazy chunk like the e-mail
// views' (core's catalogue is part of every first load).
export const socialStrings = {
  'social.label': 'Social login',
  'social.continueWith': 'Continue with {provider}',
  'social.more': 'More',
  'social.popupOpen': 'Waiting for the login window',
  'social.connecting': 'Logging in…',
  'social.farcasterPreparing': 'Preparing the Farcaster sign-in…',
  'social.farcasterScan': 'Scan this QR code with your phone to sign in with Farcaster',
  'social.farcasterOpen': 'Open Farcaster on this device',
  'social.tryAgain': 'Try again',
} as const
