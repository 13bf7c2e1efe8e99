// The Account view's own strings (English) beyond core's catalogue: the Buy
// and Swap actions, which only pages offering them show.
export const accountStrings = {
  'account.buy': 'Buy',
  'account.swap': 'Swap',
} as const
