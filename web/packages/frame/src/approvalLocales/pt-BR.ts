// The approval view in pt-BR (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Solicitado por {origin}',
  'approve.unlimited': 'Aprovação ilimitada: {spender} poderá gastar todos os seus {token}, agora e depois',
  'approve.arming': 'Aprovar é liberado quando esta janela estiver totalmente visível',
  'approve.working': 'Aprovado: assinando…',
  'approve.spender': 'Autorizado',
  'approve.allowance': 'Limite',
  'approve.signTypedData': 'Assinar estes dados?',
  'approve.contract': 'Contrato',
  'approve.from': 'De',
}

export default catalogue
