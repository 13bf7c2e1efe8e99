// The approval view in zh-CN (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': '消息',
  'approve.recipient': '收款方',
  'approve.amount': '金额',
  'approve.token': '代币',
  'approve.fee': '网络费用',
  'approve.feeSponsored': '由应用支付',
  'approve.network': '网络',
  'approve.data': '数据',
  'approve.approve': '批准',
  'approve.reject': '拒绝',
  'approve.signMessage': '签署此消息？',
  'approve.sendTransaction': '发送此交易？',
}

export default catalogue
