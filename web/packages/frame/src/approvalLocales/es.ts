// The approval view in es (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Solicitado por {origin}',
  'approve.unlimited': 'Aprobación ilimitada: {spender} podrá gastar todos tus {token}, ahora y más adelante',
  'approve.arming': 'Aprobar se activa cuando esta ventana es totalmente visible',
  'approve.working': 'Aprobado: firmando…',
  'approve.spender': 'Gastador',
  'approve.allowance': 'Asignación',
  'approve.signTypedData': '¿Firmar estos datos?',
  'approve.contract': 'Contrato',
  'approve.from': 'De',
}

export default catalogue
