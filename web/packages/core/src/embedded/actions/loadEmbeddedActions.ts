/** The e-mail wallet's actions, each taking the Latch (see ./all). */
import { loadLazy } from '../../loadLazy'
export type EmbeddedActions = typeof import('./all')

/**
 * loadEmbeddedActions loads the e-mail wallet's actions (a chunk of their
 * own): startEmailLogin, submitOtp, resendCode, waitForDeviceApproval,
 * submitRecoveryPassword, cancelApproval, updateEmail, submitUpdateEmailOtp,
 * signOut and connectSocial (social login through a popup).
 */
export function loadEmbeddedActions(): Promise<EmbeddedActions> {
  return loadLazy().then((l) => l.embeddedActions())
}
