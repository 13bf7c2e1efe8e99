// The approval view in pt-BR (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Mensagem',
  'approve.recipient': 'Destinatário',
  'approve.amount': 'Valor',
  'approve.token': 'Token',
  'approve.fee': 'Taxa de rede',
  'approve.feeSponsored': 'Paga pelo app',
  'approve.network': 'Rede',
  'approve.data': 'Dados',
  'approve.approve': 'Aprovar',
  'approve.reject': 'Rejeitar',
  'approve.signMessage': 'Assinar esta mensagem?',
  'approve.sendTransaction': 'Enviar esta transação?',
}

export default catalogue
