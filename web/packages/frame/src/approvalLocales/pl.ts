// The approval view in pl (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Wiadomość',
  'approve.recipient': 'Odbiorca',
  'approve.amount': 'Kwota',
  'approve.token': 'Token',
  'approve.fee': 'Opłata sieciowa',
  'approve.feeSponsored': 'Płaci aplikacja',
  'approve.network': 'Sieć',
  'approve.data': 'Dane',
  'approve.approve': 'Zatwierdź',
  'approve.reject': 'Odrzuć',
  'approve.signMessage': 'Podpisać tę wiadomość?',
  'approve.sendTransaction': 'Wysłać tę transakcję?',
}

export default catalogue
