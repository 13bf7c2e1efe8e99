// The approval view in ja (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'メッセージ',
  'approve.recipient': '受取人',
  'approve.amount': '金額',
  'approve.token': 'トークン',
  'approve.fee': 'ネットワーク手数料',
  'approve.feeSponsored': 'アプリが負担',
  'approve.network': 'ネットワーク',
  'approve.data': 'データ',
  'approve.approve': '承認',
  'approve.reject': '拒否',
  'approve.signMessage': 'このメッセージに署名しますか？',
  'approve.sendTransaction': 'このトランザクションを送信しますか？',
}

export default catalogue
