// The approval view in ms (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Mesej',
  'approve.recipient': 'Penerima',
  'approve.amount': 'Jumlah',
  'approve.token': 'Token',
  'approve.fee': 'Yuran rangkaian',
  'approve.feeSponsored': 'Dibayar oleh aplikasi',
  'approve.network': 'Rangkaian',
  'approve.data': 'Data',
  'approve.approve': 'Luluskan',
  'approve.reject': 'Tolak',
  'approve.signMessage': 'Tandatangani mesej ini?',
  'approve.sendTransaction': 'Hantar transaksi ini?',
}

export default catalogue
