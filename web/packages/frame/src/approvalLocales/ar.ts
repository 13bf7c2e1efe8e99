// The approval view in ar (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'الرسالة',
  'approve.recipient': 'المستلم',
  'approve.amount': 'المبلغ',
  'approve.token': 'الرمز',
  'approve.fee': 'رسوم الشبكة',
  'approve.feeSponsored': 'يدفعها التطبيق',
  'approve.network': 'الشبكة',
  'approve.data': 'البيانات',
  'approve.approve': 'موافقة',
  'approve.reject': 'رفض',
  'approve.signMessage': 'هل تريد توقيع هذه الرسالة؟',
  'approve.sendTransaction': 'هل تريد إرسال هذه المعاملة؟',
}

export default catalogue
