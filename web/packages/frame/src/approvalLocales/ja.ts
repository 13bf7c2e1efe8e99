// The approval view in ja (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': '{origin} からのリクエスト',
  'approve.unlimited': '無制限の承認: {spender} はあなたの {token} をすべて、今後も使えるようになります',
  'approve.arming': 'このウィンドウが完全に表示されると承認できるようになります',
  'approve.working': '承認済み: 署名中…',
  'approve.spender': '使用者',
  'approve.allowance': '承認額',
  'approve.signTypedData': 'このデータに署名しますか？',
  'approve.contract': 'コントラクト',
  'approve.from': '送信元',
}

export default catalogue
