// The approval view in ko (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': '{origin}의 요청',
  'approve.unlimited': '무제한 승인: {spender}이(가) 지금과 앞으로 당신의 {token}을 모두 사용할 수 있습니다',
  'approve.arming': '이 창이 완전히 보이면 승인 버튼이 활성화됩니다',
  'approve.working': '승인됨: 서명 중…',
  'approve.spender': '사용자',
  'approve.allowance': '허용량',
  'approve.signTypedData': '이 데이터에 서명할까요?',
  'approve.contract': '컨트랙트',
  'approve.from': '보내는 사람',
}

export default catalogue
