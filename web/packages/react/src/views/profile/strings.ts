// The ProfileWallets view's strings (English), and the Account view's way to it: the wallets connected beside
// the active one (multi-wallet), switching and disconnecting one, adding another.
export const profileStrings = {
  'profile.openWallets_one': '{count} wallet connected',
  'profile.openWallets_other': '{count} wallets connected',
  'profile.listLabel': 'Connected wallets',
  'profile.active': 'Active',
  'profile.switch': 'Switch',
  'profile.switchTo': 'Switch to {name}',
  'profile.disconnectWallet': 'Disconnect {name}',
  'profile.addWallet': 'Add wallet',
  'profile.switchFailed': 'Could not switch to {name}',
  'profile.disconnectFailed': 'Could not disconnect {name}',
} as const
