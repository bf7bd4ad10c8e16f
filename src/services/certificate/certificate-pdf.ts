import { formatDate, type ReportLanguage } from '../../domain/report-locale.js';
import type { Certificate } from '../../domain/training/training.schema.js';
import { newPdf, pdfToBuffer } from '../report/pdf.js';

/** Every word a certificate prints, in each language it is written in. */
const TEXT = {
  de: {
    title: 'Teilnahmezertifikat',
    confirms: 'Hiermit wird bestätigt, dass',
    completed: 'die Schulung erfolgreich abgeschlossen hat:',
    module: 'Modul',
    date: 'Datum',
    score: 'Ergebnis',
    validUntil: 'Gültig bis',
    id: 'Zertifikat-ID',
    code: 'Prüfcode',
    scan: 'Zum Prüfen scannen: Gültigkeit, Modul, Datum und Initialen',
    verifyLocally: (code: string) => `Prüfen mit: compliance training certificates verify ${code}`,
  },
  en: {
    title: 'Certificate of completion',
    confirms: 'This is to certify that',
    completed: 'has successfully completed the training:',
    module: 'Module',
    date: 'Date',
    score: 'Score',
    validUntil: 'Valid until',
    id: 'Certificate ID',
    code: 'Verification code',
    scan: 'Scan to verify: validity, module, date and initials',
    verifyLocally: (code: string) => `Verify with: compliance training certificates verify ${code}`,
  },
} satisfies Record<ReportLanguage, unknown>;

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

/**
 * An A4 landscape certificate in one language (German unless asked otherwise): name, module, date, score, validity,
 * id, verification code and its QR code.
 */
export async function renderCertificatePdf(
  c: Certificate,
  verifyUrl?: string,
  lang: ReportLanguage = 'de',
): Promise<Buffer> {
  const t = TEXT[lang];
  const date = (iso: string) => formatDate(iso.slice(0, 10), lang);
  const [{ default: QRCode }, doc] = await Promise.all([
    import('qrcode'),
    newPdf({ title: `${t.title}: ${c.module_title}`, layout: 'landscape' }),
  ]);
  const w = doc.page.width;
  const h = doc.page.height;
  doc
    .rect(25, 25, w - 50, h - 50)
    .lineWidth(2)
    .strokeColor('#1a3a6b')
    .stroke();
  doc.fillColor('#1a3a6b').font('bold').fontSize(34).text(t.title, 0, 90, { width: w, align: 'center' });
  doc.fillColor('black').font('body').fontSize(14).text(t.confirms, 0, 170, { width: w, align: 'center' });
  doc.font('bold').fontSize(26).text(c.user_name, 0, 195, { width: w, align: 'center' });
  doc.font('body').fontSize(14).text(t.completed, 0, 235, { width: w, align: 'center' });
  doc
    .font('bold')
    .fontSize(20)
    .text(c.module_title, 80, 262, { width: w - 160, align: 'center' });
  doc.font('body').fontSize(12).text(`${t.module} ${c.module_code}`, 0, 300, { width: w, align: 'center' });
  const rows: Array<[string, string]> = [
    [t.date, date(c.issued_at)],
    [
      t.score,
      `${new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB').format(c.score)}${lang === 'de' ? ' %' : '%'}`,
    ],
    [t.validUntil, date(c.valid_until)],
    [t.id, c.id],
    [t.code, c.verification_code],
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
  const hint = verifyUrl ? t.scan : t.verifyLocally(c.verification_code);
  doc
    .font('body')
    .fontSize(8)
    .fillColor('#555')
    .text(hint, w - 250, 475, { width: 170, align: 'center' });
  return pdfToBuffer(doc);
}
