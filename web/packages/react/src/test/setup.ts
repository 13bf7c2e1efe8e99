// Loaded before each react test file: the modal's dialog is a lazy chunk (components/LatchModal/LatchModal) that a
// page fetches right after its first render; loading it here lets a test's click open the modal at once, as in a
// page where the chunk has arrived. LatchModal.lazy.test.tsx checks the loading itself, with a fresh module.
import { loadModalDialog } from '../components/LatchModal/LatchModal'

await loadModalDialog()
