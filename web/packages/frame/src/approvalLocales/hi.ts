// The approval view in hi (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'संदेश',
  'approve.recipient': 'प्राप्तकर्ता',
  'approve.amount': 'राशि',
  'approve.token': 'टोकन',
  'approve.fee': 'नेटवर्क शुल्क',
  'approve.feeSponsored': 'ऐप द्वारा भुगतान',
  'approve.network': 'नेटवर्क',
  'approve.data': 'डेटा',
  'approve.approve': 'मंज़ूर करें',
  'approve.reject': 'अस्वीकार करें',
  'approve.signMessage': 'यह संदेश साइन करें?',
  'approve.sendTransaction': 'यह ट्रांज़ैक्शन भेजें?',
}

export default catalogue
