// The approval view in zh-CN (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': '请求来自 {origin}',
  'approve.unlimited': '无限额授权：{spender} 现在和以后都可以花费你全部的 {token}',
  'approve.arming': '此窗口完全可见后才能批准',
  'approve.working': '已批准：正在签名…',
  'approve.spender': '授权对象',
  'approve.allowance': '授权额度',
  'approve.signTypedData': '签署这些数据？',
  'approve.contract': '合约',
  'approve.from': '发送方',
}

export default catalogue
