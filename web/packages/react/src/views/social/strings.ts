// The social buttons' strings (English), in their lazy chunk like the e-mail
// views' (core's catalogue is part of every first load).
export const socialStrings = {
  label: 'Social login',
  continueWith: 'Continue with {provider}',
  more: 'More',
  popupOpen: 'Waiting for the login window',
  connecting: 'Logging in…',
} as const
