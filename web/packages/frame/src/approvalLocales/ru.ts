// The approval view in ru (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Сообщение',
  'approve.recipient': 'Получатель',
  'approve.amount': 'Сумма',
  'approve.token': 'Токен',
  'approve.fee': 'Комиссия сети',
  'approve.feeSponsored': 'Оплачивает приложение',
  'approve.network': 'Сеть',
  'approve.data': 'Данные',
  'approve.approve': 'Подтвердить',
  'approve.reject': 'Отклонить',
  'approve.signMessage': 'Подписать это сообщение?',
  'approve.sendTransaction': 'Отправить эту транзакцию?',
}

export default catalogue
