// The approval view in de (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Nachricht',
  'approve.recipient': 'Empfänger',
  'approve.amount': 'Betrag',
  'approve.token': 'Token',
  'approve.fee': 'Netzwerkgebühr',
  'approve.feeSponsored': 'Von der App bezahlt',
  'approve.network': 'Netzwerk',
  'approve.data': 'Daten',
  'approve.approve': 'Bestätigen',
  'approve.reject': 'Ablehnen',
  'approve.signMessage': 'Diese Nachricht signieren?',
  'approve.sendTransaction': 'Diese Transaktion senden?',
}

export default catalogue
