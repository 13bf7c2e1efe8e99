// The approval view in ms (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Diminta oleh {origin}',
  'approve.unlimited': 'Kelulusan tanpa had: {spender} boleh membelanjakan semua {token} anda, sekarang dan kemudian',
  'approve.arming': 'Luluskan aktif apabila tetingkap ini kelihatan sepenuhnya',
  'approve.working': 'Diluluskan: menandatangani…',
  'approve.spender': 'Pembelanja',
  'approve.allowance': 'Had kebenaran',
  'approve.signTypedData': 'Tandatangani data ini?',
  'approve.contract': 'Kontrak',
  'approve.from': 'Daripada',
}

export default catalogue
