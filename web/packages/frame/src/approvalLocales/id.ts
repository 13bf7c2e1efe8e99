// The approval view in id (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Diminta oleh {origin}',
  'approve.unlimited': 'Persetujuan tanpa batas: {spender} dapat membelanjakan semua {token} Anda, sekarang dan nanti',
  'approve.arming': 'Setujui aktif setelah jendela ini terlihat sepenuhnya',
  'approve.working': 'Disetujui: menandatangani…',
  'approve.spender': 'Pembelanja',
  'approve.allowance': 'Batas izin',
  'approve.signTypedData': 'Tandatangani data ini?',
  'approve.contract': 'Kontrak',
  'approve.from': 'Dari',
}

export default catalogue
