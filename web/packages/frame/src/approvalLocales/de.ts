// The approval view in de (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Angefragt von {origin}',
  'approve.unlimited': 'Unbegrenzte Freigabe: {spender} darf alle deine {token} ausgeben, jetzt und später',
  'approve.arming': 'Bestätigen wird aktiv, sobald dieses Fenster vollständig sichtbar ist',
  'approve.working': 'Bestätigt: wird signiert…',
  'approve.spender': 'Berechtigter',
  'approve.allowance': 'Freigabe',
  'approve.signTypedData': 'Diese Daten signieren?',
  'approve.contract': 'Vertrag',
  'approve.from': 'Von',
}

export default catalogue
