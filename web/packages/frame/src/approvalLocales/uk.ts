// The approval view in uk (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Запит від {origin}',
  'approve.unlimited': 'Необмежений дозвіл: {spender} зможе витрачати всі ваші {token}, зараз і надалі',
  'approve.arming': 'Підтвердження стане доступним, коли це вікно буде повністю видно',
  'approve.working': 'Підтверджено: підписання…',
  'approve.spender': 'Отримувач дозволу',
  'approve.allowance': 'Ліміт',
  'approve.signTypedData': 'Підписати ці дані?',
  'approve.contract': 'Контракт',
  'approve.from': 'Від',
}

export default catalogue
