// The approval view in id (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Pesan',
  'approve.recipient': 'Penerima',
  'approve.amount': 'Jumlah',
  'approve.token': 'Token',
  'approve.fee': 'Biaya jaringan',
  'approve.feeSponsored': 'Dibayar oleh aplikasi',
  'approve.network': 'Jaringan',
  'approve.data': 'Data',
  'approve.approve': 'Setujui',
  'approve.reject': 'Tolak',
  'approve.signMessage': 'Tanda tangani pesan ini?',
  'approve.sendTransaction': 'Kirim transaksi ini?',
}

export default catalogue
