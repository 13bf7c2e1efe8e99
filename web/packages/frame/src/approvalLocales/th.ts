// The approval view in th (approvalStrings.ts has every key; one missing here shows in English).
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
  'approve.requestedBy': 'ร้องขอโดย {origin}',
  'approve.unlimited': 'อนุมัติไม่จำกัด: {spender} จะใช้ {token} ทั้งหมดของคุณได้ ทั้งตอนนี้และภายหลัง',
  'approve.arming': 'ปุ่มอนุมัติจะใช้ได้เมื่อหน้าต่างนี้แสดงเต็มที่',
  'approve.working': 'อนุมัติแล้ว: กำลังลงนาม…',
  'approve.spender': 'ผู้ใช้จ่าย',
  'approve.allowance': 'วงเงินที่อนุญาต',
  'approve.signTypedData': 'ลงนามข้อมูลนี้หรือไม่?',
  'approve.contract': 'สัญญา',
  'approve.from': 'จาก',
}

export default catalogue
