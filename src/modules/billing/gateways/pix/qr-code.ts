import QRCode from "qrcode";

/** `data:image/png;base64,...` of a QR code carrying `text` (error correction M, as banks' apps read BR Codes). */
export async function qrPngDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { type: "image/png", errorCorrectionLevel: "M", margin: 2, width: 300 });
}
