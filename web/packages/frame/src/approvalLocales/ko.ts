// The approval view in ko (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': '메시지',
  'approve.recipient': '받는 사람',
  'approve.amount': '금액',
  'approve.token': '토큰',
  'approve.fee': '네트워크 수수료',
  'approve.feeSponsored': '앱에서 지불',
  'approve.network': '네트워크',
  'approve.data': '데이터',
  'approve.approve': '승인',
  'approve.reject': '거부',
  'approve.signMessage': '이 메시지에 서명하시겠습니까?',
  'approve.sendTransaction': '이 트랜잭션을 보내시겠습니까?',
}

export default catalogue
