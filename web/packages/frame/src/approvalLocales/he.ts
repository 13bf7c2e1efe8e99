// The approval view in he (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'התבקש על ידי {origin}',
  'approve.unlimited': 'אישור בלתי מוגבל: {spender} יוכל להוציא את כל ה-{token} שלך, עכשיו ובהמשך',
  'approve.arming': 'האישור יופעל כשהחלון הזה גלוי במלואו',
  'approve.working': 'אושר: חותם…',
  'approve.spender': 'מורשה הוצאה',
  'approve.allowance': 'הרשאה',
  'approve.signTypedData': 'לחתום על הנתונים האלה?',
  'approve.contract': 'חוזה',
  'approve.from': 'מאת',
}

export default catalogue
