// The approval view in hi (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': '{origin} द्वारा अनुरोधित',
  'approve.unlimited': 'असीमित अनुमति: {spender} आपके सभी {token} अभी और बाद में खर्च कर सकता है',
  'approve.arming': 'यह विंडो पूरी तरह दिखने पर स्वीकृति सक्रिय होगी',
  'approve.working': 'स्वीकृत: हस्ताक्षर हो रहा है…',
  'approve.spender': 'खर्चकर्ता',
  'approve.allowance': 'अनुमत राशि',
  'approve.signTypedData': 'यह डेटा हस्ताक्षरित करें?',
  'approve.contract': 'कॉन्ट्रैक्ट',
  'approve.from': 'से',
}

export default catalogue
