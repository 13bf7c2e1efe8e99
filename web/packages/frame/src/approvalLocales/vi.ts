// The approval view in vi (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Thông điệp',
  'approve.recipient': 'Người nhận',
  'approve.amount': 'Số lượng',
  'approve.token': 'Token',
  'approve.fee': 'Phí mạng',
  'approve.feeSponsored': 'Ứng dụng chi trả',
  'approve.network': 'Mạng',
  'approve.data': 'Dữ liệu',
  'approve.approve': 'Phê duyệt',
  'approve.reject': 'Từ chối',
  'approve.signMessage': 'Ký thông điệp này?',
  'approve.sendTransaction': 'Gửi giao dịch này?',
}

export default catalogue
