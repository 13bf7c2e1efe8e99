// The approval view in vi (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Yêu cầu từ {origin}',
  'approve.unlimited': 'Phê duyệt không giới hạn: {spender} có thể tiêu toàn bộ {token} của bạn, bây giờ và sau này',
  'approve.arming': 'Nút phê duyệt sẽ bật khi cửa sổ này hiển thị đầy đủ',
  'approve.working': 'Đã phê duyệt: đang ký…',
  'approve.spender': 'Bên chi tiêu',
  'approve.allowance': 'Hạn mức',
  'approve.signTypedData': 'Ký dữ liệu này?',
  'approve.contract': 'Hợp đồng',
  'approve.from': 'Từ',
}

export default catalogue
