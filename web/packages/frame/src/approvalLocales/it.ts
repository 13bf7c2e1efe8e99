// The approval view in it (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Richiesto da {origin}',
  'approve.unlimited': 'Autorizzazione illimitata: {spender} potrà spendere tutti i tuoi {token}, ora e in futuro',
  'approve.arming': 'Approva si attiva quando questa finestra è completamente visibile',
  'approve.working': 'Approvato: firma in corso…',
  'approve.spender': 'Autorizzato',
  'approve.allowance': 'Limite',
  'approve.signTypedData': 'Firmare questi dati?',
  'approve.contract': 'Contratto',
  'approve.from': 'Da',
}

export default catalogue
