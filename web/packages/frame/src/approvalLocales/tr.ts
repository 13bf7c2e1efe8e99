// The approval view in tr (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Mesaj',
  'approve.recipient': 'Alıcı',
  'approve.amount': 'Tutar',
  'approve.token': 'Token',
  'approve.fee': 'Ağ ücreti',
  'approve.feeSponsored': 'Uygulama tarafından ödenir',
  'approve.network': 'Ağ',
  'approve.data': 'Veri',
  'approve.approve': 'Onayla',
  'approve.reject': 'Reddet',
  'approve.signMessage': 'Bu mesaj imzalansın mı?',
  'approve.sendTransaction': 'Bu işlem gönderilsin mi?',
}

export default catalogue
