/**
 * `data:image/png;base64,...` of a QR code carrying `text` (error correction M, as banks' apps read BR Codes). qrcode
 * (and its PNG encoder) is loaded with the first code drawn.
 */
export async function qrPngDataUrl(text: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toDataURL(text, { type: "image/png", errorCorrectionLevel: "M", margin: 2, width: 300 });
}
