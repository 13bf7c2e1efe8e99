// The approval view in tr (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': '{origin} tarafından istendi',
  'approve.unlimited': 'Sınırsız onay: {spender} tüm {token} bakiyenizi şimdi ve daha sonra harcayabilir',
  'approve.arming': 'Onay, bu pencere tamamen göründüğünde etkinleşir',
  'approve.working': 'Onaylandı: imzalanıyor…',
  'approve.spender': 'Harcayıcı',
  'approve.allowance': 'İzin miktarı',
  'approve.signTypedData': 'Bu veri imzalansın mı?',
  'approve.contract': 'Sözleşme',
  'approve.from': 'Gönderen',
}

export default catalogue
