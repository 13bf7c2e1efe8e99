// The approval view in th (approvalStrings.ts has every key; a missing one is English).
import type { ApprovalCatalogue } from '../approvalStrings'

const catalogue: ApprovalCatalogue = {
  'approve.message': 'ข้อความ',
  'approve.recipient': 'ผู้รับ',
  'approve.amount': 'จำนวน',
  'approve.token': 'โทเค็น',
  'approve.fee': 'ค่าธรรมเนียมเครือข่าย',
  'approve.feeSponsored': 'แอปเป็นผู้จ่าย',
  'approve.network': 'เครือข่าย',
  'approve.data': 'ข้อมูล',
  'approve.approve': 'อนุมัติ',
  'approve.reject': 'ปฏิเสธ',
  'approve.signMessage': 'ลงนามข้อความนี้ไหม',
  'approve.sendTransaction': 'ส่งธุรกรรมนี้ไหม',
}

export default catalogue
