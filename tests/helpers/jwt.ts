/** The header and claims of a JWT, read without checking anything (what a client could see in it). */
export function decodeJwt(token: string): { header: Record<string, any>; payload: Record<string, any> } {
  const [header, payload] = token.split(".");
  const part = (text: string) => JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Record<string, any>;
  return { header: part(header), payload: part(payload) };
}
