// The approval view in nl (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Bericht',
  'approve.recipient': 'Ontvanger',
  'approve.amount': 'Bedrag',
  'approve.token': 'Token',
  'approve.fee': 'Netwerkkosten',
  'approve.feeSponsored': 'Betaald door de app',
  'approve.network': 'Netwerk',
  'approve.data': 'Data',
  'approve.approve': 'Goedkeuren',
  'approve.reject': 'Weigeren',
  'approve.signMessage': 'Dit bericht ondertekenen?',
  'approve.sendTransaction': 'Deze transactie versturen?',
}

export default catalogue
