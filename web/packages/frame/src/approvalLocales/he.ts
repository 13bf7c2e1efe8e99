// The approval view in he (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'הודעה',
  'approve.recipient': 'נמען',
  'approve.amount': 'סכום',
  'approve.token': 'טוקן',
  'approve.fee': 'עמלת רשת',
  'approve.feeSponsored': 'ממומנת על ידי האפליקציה',
  'approve.network': 'רשת',
  'approve.data': 'נתונים',
  'approve.approve': 'אישור',
  'approve.reject': 'דחייה',
  'approve.signMessage': 'לחתום על ההודעה הזו?',
  'approve.sendTransaction': 'לשלוח את העסקה הזו?',
}

export default catalogue
