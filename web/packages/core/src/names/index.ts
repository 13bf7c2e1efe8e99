// The names module (spec §3, §4, §5; api-shapes §3.6): latchd's profile
// client and the actions over it. A lazy chunk: loadNamesModule brings it.
export { createNamesClient, NamesRequestError, parseNameRecord } from './client'
export type { NameRecord, NameRegistration, NameSuggestion, NamesClient } from './client'
export { accountNameError, MAX_NAME_LENGTH, MIN_NAME_LENGTH } from './rules'
export { accountHasNames, accountIsEmbedded, type NamesState, type RegisterStep } from './state'
export { getNameSuggestions } from './actions/getNameSuggestions'
export { getNamesState } from './actions/getNamesState'
export { getProfileName } from './actions/getProfileName'
export { loadProfileName } from './actions/loadProfileName'
export { lookupName } from './actions/lookupName'
export { coinTypeOf, registerName, registerUnavailable, REGISTER_MESSAGES } from './actions/registerName'
export { watchNamesState } from './actions/watchNamesState'
