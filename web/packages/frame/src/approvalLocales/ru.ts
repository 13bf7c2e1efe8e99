// The approval view in ru (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Запрос от {origin}',
  'approve.unlimited': 'Неограниченное разрешение: {spender} сможет тратить все ваши {token}, сейчас и в будущем',
  'approve.arming': 'Подтверждение станет доступно, когда это окно будет полностью видно',
  'approve.working': 'Подтверждено: подписание…',
  'approve.spender': 'Получатель разрешения',
  'approve.allowance': 'Лимит',
  'approve.signTypedData': 'Подписать эти данные?',
  'approve.contract': 'Контракт',
  'approve.from': 'От',
}

export default catalogue
