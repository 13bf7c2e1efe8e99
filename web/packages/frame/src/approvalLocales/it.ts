// The approval view in it (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Messaggio',
  'approve.recipient': 'Destinatario',
  'approve.amount': 'Importo',
  'approve.token': 'Token',
  'approve.fee': 'Commissione di rete',
  'approve.feeSponsored': 'Pagata dall’app',
  'approve.network': 'Rete',
  'approve.data': 'Dati',
  'approve.approve': 'Approva',
  'approve.reject': 'Rifiuta',
  'approve.signMessage': 'Firmare questo messaggio?',
  'approve.sendTransaction': 'Inviare questa transazione?',
}

export default catalogue
