import type { Certificate } from '../../domain/training/training.schema.js';
import { newPdf, pdfToBuffer } from '../report/pdf.js';

const date = (iso: string) => iso.slice(0, 10).split('-').reverse().join('.');

/**
 * Where the QR code points: the public verification route of the server at `base` (its /sdk/v1 URL), for the
 * certificate's tenant; without a base, the code alone (what `training certificates verify` takes).
 */
export function verificationTarget(c: Certificate, base?: string): string {
  if (!base) return c.verification_code;
  const url = new URL(`${base.replace(/\/+$/, '')}/training/certificates/verify/${c.verification_code}`);
  url.searchParams.set('tenant_id', c.tenant_id);
  return url.toString();
}

/** An A4 landscape certificate: name, module, date, score, validity, id, verification code and its QR code. */
export async function renderCertificatePdf(c: Certificate, verifyUrl?: string): Promise<Buffer> {
  const [{ default: QRCode }, doc] = await Promise.all([
    import('qrcode'),
    newPdf({ title: `Zertifikat ${c.module_title}`, layout: 'landscape' }),
  ]);
  const w = doc.page.width;
  const h = doc.page.height;
  doc
    .rect(25, 25, w - 50, h - 50)
    .lineWidth(2)
    .strokeColor('#1a3a6b')
    .stroke();
  doc.fillColor('#1a3a6b').font('bold').fontSize(34).text('Teilnahmezertifikat', 0, 80, { width: w, align: 'center' });
  doc
    .fillColor('#555')
    .font('body')
    .fontSize(12)
    .text('Certificate of completion', 0, 122, { width: w, align: 'center' });
  doc.fillColor('black').fontSize(14).text('Hiermit wird bestätigt, dass', 0, 170, { width: w, align: 'center' });
  doc.font('bold').fontSize(26).text(c.user_name, 0, 195, { width: w, align: 'center' });
  doc
    .font('body')
    .fontSize(14)
    .text('die Schulung erfolgreich abgeschlossen hat:', 0, 235, { width: w, align: 'center' });
  doc
    .font('bold')
    .fontSize(20)
    .text(c.module_title, 80, 262, { width: w - 160, align: 'center' });
  doc.font('body').fontSize(12).text(`Modul ${c.module_code}`, 0, 300, { width: w, align: 'center' });
  const rows: Array<[string, string]> = [
    ['Datum / Date', date(c.issued_at)],
    ['Ergebnis / Score', `${c.score} %`],
    ['Gültig bis / Valid until', date(c.valid_until)],
    ['Zertifikat-ID', c.id],
    ['Prüfcode / Verification code', c.verification_code],
  ];
  let y = 350;
  for (const [k, v] of rows) {
    doc.font('body').fontSize(11).fillColor('#555').text(k, 90, y, { width: 200 });
    doc.font('bold').fillColor('black').text(v, 290, y, { width: 330 });
    y += 22;
  }
  const target = verificationTarget(c, verifyUrl);
  const qr = await QRCode.toBuffer(target, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  doc.image(qr, w - 230, 340, { width: 130 });
  const hint = verifyUrl
    ? 'Scan to verify: validity, module, date and initials'
    : 'compliance training certificates verify verifies this code';
  doc
    .font('body')
    .fontSize(8)
    .fillColor('#555')
    .text(hint, w - 250, 475, { width: 170, align: 'center' });
  return pdfToBuffer(doc);
}
