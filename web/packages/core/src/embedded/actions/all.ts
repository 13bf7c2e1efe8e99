// The e-mail wallet's actions as one on-demand chunk (loadEmbeddedActions):
// only the e-mail views use them, so a page's first load carries none.
export { answerApproval } from './answerApproval'
export { setAccountType, smartAccountNetworks, storedAccountType, SMART_ACCOUNTS_UNSUPPORTED_MESSAGE } from './accountType'
export { connectSocial } from './connectSocial'
export { openSocialPopup } from '../socialPopup'
export { resendCode } from './resendCode'
export { signOut } from './signOut'
export { methodNotAllowed } from './methodNotAllowed'
export { startEmailLogin } from './startEmailLogin'
export { submitOtp } from './submitOtp'
export { submitRecoveryPassword } from './submitRecoveryPassword'
export { submitUpdateEmailOtp, updateEmail } from './updateEmail'
export { waitForDeviceApproval } from './waitForDeviceApproval'
