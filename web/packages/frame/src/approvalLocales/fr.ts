// The approval view in fr (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'Demandé par {origin}',
  'approve.unlimited': 'Autorisation illimitée : {spender} pourra dépenser tous vos {token}, maintenant et plus tard',
  'approve.arming': 'Approuver s’active dès que cette fenêtre est entièrement visible',
  'approve.working': 'Approuvé : signature en cours…',
  'approve.spender': 'Bénéficiaire',
  'approve.allowance': 'Autorisation',
  'approve.signTypedData': 'Signer ces données ?',
  'approve.contract': 'Contrat',
  'approve.from': 'De',
}

export default catalogue
