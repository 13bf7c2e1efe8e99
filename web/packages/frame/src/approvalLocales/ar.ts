// The approval view in ar (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'طلبه {origin}',
  'approve.unlimited': 'موافقة غير محدودة: يمكن لـ {spender} إنفاق كل ما لديك من {token}، الآن ولاحقًا',
  'approve.arming': 'يُفعَّل زر الموافقة عندما تكون هذه النافذة ظاهرة بالكامل',
  'approve.working': 'تمت الموافقة: جارٍ التوقيع…',
  'approve.spender': 'المُنفِق',
  'approve.allowance': 'الحد المسموح',
  'approve.signTypedData': 'توقيع هذه البيانات؟',
  'approve.contract': 'العقد',
  'approve.from': 'من',
}

export default catalogue
