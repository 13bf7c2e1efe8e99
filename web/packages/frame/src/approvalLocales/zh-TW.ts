// The approval view in zh-TW (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': '訊息',
  'approve.recipient': '收款方',
  'approve.amount': '金額',
  'approve.token': '代幣',
  'approve.fee': '網路手續費',
  'approve.feeSponsored': '由應用程式支付',
  'approve.network': '網路',
  'approve.data': '資料',
  'approve.approve': '核准',
  'approve.reject': '拒絕',
  'approve.signMessage': '要簽署此訊息嗎？',
  'approve.sendTransaction': '要傳送此交易嗎？',
}

export default catalogue
