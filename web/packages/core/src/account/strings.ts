// The Activity tab's strings (English): a history row's title by its
// operation type, and the status a row without transfers shows. They live in
// the account module's chunk rather than in core's catalogue.
export const activityStrings = {
  'activity.approve': 'Approved',
  'activity.bought': 'Bought',
  'activity.borrow': 'Borrowed',
  'activity.burn': 'Burned',
  'activity.cancel': 'Cancelled',
  'activity.claim': 'Claimed',
  'activity.deploy': 'Deployed',
  'activity.deposit': 'Deposited',
  'activity.execute': 'Executed',
  'activity.mint': 'Minted',
  'activity.receive': 'Received',
  'activity.repay': 'Repaid',
  'activity.send': 'Sent',
  'activity.sell': 'Sold',
  'activity.stake': 'Staked',
  'activity.trade': 'Swapped',
  'activity.unstake': 'Unstaked',
  'activity.withdraw': 'Withdrawn',
  /** A transaction of no known type and no type name. */
  'activity.transaction': 'Transaction',
  /** A row without transfers shows its status (as AppKit does). */
  'activity.statusConfirmed': 'confirmed',
  'activity.statusFailed': 'failed',
  'activity.statusPending': 'pending',
} as const

/** A key of the Activity tab's strings. */
export type ActivityStringKey = keyof typeof activityStrings
