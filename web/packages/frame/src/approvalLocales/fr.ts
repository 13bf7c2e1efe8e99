// The approval view in fr (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'Message',
  'approve.recipient': 'Destinataire',
  'approve.amount': 'Montant',
  'approve.token': 'Jeton',
  'approve.fee': 'Frais de réseau',
  'approve.feeSponsored': 'Payés par l’application',
  'approve.network': 'Réseau',
  'approve.data': 'Données',
  'approve.approve': 'Approuver',
  'approve.reject': 'Refuser',
  'approve.signMessage': 'Signer ce message ?',
  'approve.sendTransaction': 'Envoyer cette transaction ?',
}

export default catalogue
