// The sign-in module (spec §2, §4): the flow and its actions, latchSiwx()'s
// latchd client and the message writer. A lazy chunk: init() loads it when
// `options.siwx` is set, useLatchSession through loadSiwxModule.
export { cancelSiwx, getSiwxState, isUserRejection, signIn, signOut, SIWX_ERRORS, startSiwx, watchSiwxState } from './flow'
export { siwxStrings } from './strings'
export { createSiwxMessage, formatSiwxMessage, messageDataOf, SiwxMessageError } from './message'
export { createSiwxClient, SiwxRequestError, type SiwxClient, type SiwxSessionRecord } from './client'
