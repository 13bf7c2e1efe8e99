// The approval view in fa (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'درخواست از {origin}',
  'approve.unlimited': 'تأیید نامحدود: {spender} می\u200cتواند همهٔ {token} شما را، اکنون و بعداً، خرج کند',
  'approve.arming': 'دکمهٔ تأیید وقتی فعال می\u200cشود که این پنجره کاملاً دیده شود',
  'approve.working': 'تأیید شد: در حال امضا…',
  'approve.spender': 'خرج\u200cکننده',
  'approve.allowance': 'سقف مجاز',
  'approve.signTypedData': 'این داده امضا شود؟',
  'approve.contract': 'قرارداد',
  'approve.from': 'از',
}

export default catalogue
