// The approval view in es (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Mensaje',
  'approve.recipient': 'Destinatario',
  'approve.amount': 'Cantidad',
  'approve.token': 'Token',
  'approve.fee': 'Comisión de red',
  'approve.feeSponsored': 'La paga la app',
  'approve.network': 'Red',
  'approve.data': 'Datos',
  'approve.approve': 'Aprobar',
  'approve.reject': 'Rechazar',
  'approve.signMessage': '¿Firmar este mensaje?',
  'approve.sendTransaction': '¿Enviar esta transacción?',
}

export default catalogue
