// The e-mail wallet's views as one chunk: the field in Connect, the code and
// device views, ApproveTransaction and UpdateEmail. A page loads it only when
// the options allow e-mail login (or the wallet asks for an approval), and
// one chunk keeps the modules they share with the first load from being
// split into more preloaded files.
export { default as AccountEmail } from './AccountEmail'
export { default as ApproveTransactionView } from './ApproveTransactionView'
export { default as EmailLogin } from './EmailLogin'
export { default as EmailVerifyDeviceView } from './EmailVerifyDeviceView'
export { default as EmailVerifyOtpView } from './EmailVerifyOtpView'
export { default as UpdateEmailView } from './UpdateEmailView'
