// The approval view in zh-TW (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': '請求來自 {origin}',
  'approve.unlimited': '無限額授權：{spender} 現在和以後都可以花費你全部的 {token}',
  'approve.arming': '此視窗完全可見後才能核准',
  'approve.working': '已核准：正在簽署…',
  'approve.spender': '授權對象',
  'approve.allowance': '授權額度',
  'approve.signTypedData': '簽署這些資料？',
  'approve.contract': '合約',
  'approve.from': '發送方',
}

export default catalogue
