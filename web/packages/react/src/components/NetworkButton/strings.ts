// The network button's own strings (English); core's catalogue stays as it was, so a page without one pays nothing.
export const networkButtonStrings = {
  'networkButton.unsupported': 'Your wallet is on a network this app does not support',
} as const
