// The approval view in fa (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'پیام',
  'approve.recipient': 'گیرنده',
  'approve.amount': 'مقدار',
  'approve.token': 'توکن',
  'approve.fee': 'کارمزد شبکه',
  'approve.feeSponsored': 'پرداخت توسط برنامه',
  'approve.network': 'شبکه',
  'approve.data': 'داده‌ها',
  'approve.approve': 'تأیید',
  'approve.reject': 'رد کردن',
  'approve.signMessage': 'این پیام امضا شود؟',
  'approve.sendTransaction': 'این تراکنش ارسال شود؟',
}

export default catalogue
