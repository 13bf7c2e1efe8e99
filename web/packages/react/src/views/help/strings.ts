// The "What is a wallet / network?" explanations (English), in their lazy chunk.
export const helpStrings = {
  'help.walletKeysTitle': 'Your keys, your account',
  'help.walletKeysText':
    'A wallet holds the keys that prove an address is yours. Apps never see those keys: they ask the wallet, and the wallet asks you.',
  'help.walletLoginTitle': 'One login for many apps',
  'help.walletLoginText':
    'Connecting a wallet is how you sign in here. The same wallet works with other apps, without a new password for each.',
  'help.walletUseTitle': 'Send, receive and sign',
  'help.walletUseText':
    'With it you hold tokens, send and receive them, and approve each transaction or message yourself before anything happens.',
  'help.networkLedgerTitle': 'A shared ledger',
  'help.networkLedgerText':
    'A network is a blockchain: a public record of balances and transactions that many computers keep in agreement.',
  'help.networkTokensTitle': 'Each has its own tokens and fees',
  'help.networkTokensText':
    'Your address can be the same on several networks, but balances are separate on each, and fees are paid in its own currency.',
  'help.networkSwitchTitle': 'Switch when an app asks',
  'help.networkSwitchText':
    'An app works on the networks it supports. Pick one of them here, and your wallet moves to it after you approve.',
} as const
