// The runtime-update module, an on-demand chunk (config/load): what an app calls after createLatch to change it.
export { updateFeatures, updateOptions } from './updateOptions'
export { FIXED_OPTIONS, resolveFeaturesUpdate, resolveOptionsUpdate } from './validate'
export { addNetwork } from '../network/actions/addNetwork'
export { removeNetwork } from '../network/actions/removeNetwork'
export { LatchOpenError, openModal } from '../modal/actions/openModal'
