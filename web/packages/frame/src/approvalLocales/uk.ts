// The approval view in uk (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Повідомлення',
  'approve.recipient': 'Одержувач',
  'approve.amount': 'Сума',
  'approve.token': 'Токен',
  'approve.fee': 'Комісія мережі',
  'approve.feeSponsored': 'Оплачує застосунок',
  'approve.network': 'Мережа',
  'approve.data': 'Дані',
  'approve.approve': 'Підтвердити',
  'approve.reject': 'Відхилити',
  'approve.signMessage': 'Підписати це повідомлення?',
  'approve.sendTransaction': 'Надіслати цю транзакцію?',
}

export default catalogue
