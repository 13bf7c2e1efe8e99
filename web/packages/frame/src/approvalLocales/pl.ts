// The approval view in pl (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Żądanie od {origin}',
  'approve.unlimited': 'Nieograniczona zgoda: {spender} może wydać wszystkie Twoje {token}, teraz i później',
  'approve.arming': 'Zatwierdzenie będzie aktywne, gdy to okno będzie w pełni widoczne',
  'approve.working': 'Zatwierdzono: podpisywanie…',
  'approve.spender': 'Wydający',
  'approve.allowance': 'Limit',
  'approve.signTypedData': 'Podpisać te dane?',
  'approve.contract': 'Kontrakt',
  'approve.from': 'Od',
}

export default catalogue
