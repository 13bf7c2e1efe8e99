// The wallet button's own strings (English); core's catalogue stays as it was, so a page without one pays nothing.
export const walletButtonStrings = {
  'walletButton.connect': 'Connect {name}',
  'walletButton.connecting': 'Connecting {name}…',
  'walletButton.unknown': '“{name}” is not a wallet Latch knows',
} as const
