// The approval view in nl (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Aangevraagd door {origin}',
  'approve.unlimited': 'Onbeperkte goedkeuring: {spender} mag al je {token} uitgeven, nu en later',
  'approve.arming': 'Goedkeuren wordt actief zodra dit venster volledig zichtbaar is',
  'approve.working': 'Goedgekeurd: bezig met ondertekenen…',
  'approve.spender': 'Besteder',
  'approve.allowance': 'Toegestaan bedrag',
  'approve.signTypedData': 'Deze gegevens ondertekenen?',
  'approve.contract': 'Contract',
  'approve.from': 'Van',
}

export default catalogue
