import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Where webhooks may go (contract §14.1). In production: https only, and no host that resolves to an address inside
 * the service's own network (loopback, private, link-local, CGNAT, unique-local, cloud metadata…), unless
 * WEBHOOKS_ALLOW_PRIVATE_URLS=true. Elsewhere (development, tests) any http(s) URL.
 */
export interface UrlPolicy {
  httpsOnly: boolean;
  refusePrivateAddresses: boolean;
}

// One list per family: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const refusedV4 = new BlockList();
const refusedV6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, and the cloud metadata service 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments (some clouds' metadata and DNS)
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  refusedV4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64: a private network's own translator, the IPv4 address anywhere inside
  ["100::", 64], // discard
  ["fc00::", 7], // unique-local (AWS metadata fd00:ec2::254 among them)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  refusedV6.addSubnet(network, prefix, "ipv6");
}

/**
 * The IPv4 addresses an IPv6 address leads to through the transition mechanisms that carry one inside it: a
 * connection to `[::7f00:1]` (how URLs write `[::127.0.0.1]`) or `[2002:7f00:1::]` may reach 127.0.0.1.
 */
function embeddedIPv4(address: string): string[] {
  const parts = ipaddr.IPv6.parse(address).parts;
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  const found: string[] = [];
  const compatible = zeros(0, 5) && (parts[5] === 0 || parts[5] === 0xffff); // ::a.b.c.d, and IPv4-mapped ::ffff:a.b.c.d
  const translated = zeros(0, 4) && parts[4] === 0xffff && parts[5] === 0; // SIIT ::ffff:0:a.b.c.d
  const nat64 = parts[0] === 0x64 && parts[1] === 0xff9b && zeros(2, 6); // 64:ff9b::a.b.c.d
  if (compatible || translated || nat64) found.push(v4(parts[6], parts[7]));
  if (parts[0] === 0x2002) found.push(v4(parts[1], parts[2])); // 6to4: 2002:aabb:ccdd::/48
  // Teredo 2001:0::/32: the server's address, then the client's, stored with every bit inverted.
  if (parts[0] === 0x2001 && parts[1] === 0) found.push(v4(parts[2], parts[3]), v4(parts[6] ^ 0xffff, parts[7] ^ 0xffff));
  // ISATAP, under any prefix: interface id 0:5efe:a.b.c.d (or with its universal/group bits set, 200:5efe:…).
  if ((parts[4] & 0xfcff) === 0 && parts[5] === 0x5efe) found.push(v4(parts[6], parts[7]));
  return found;
}

/** True for an address no webhook may reach under a policy that refuses private addresses. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedV4.check(address, "ipv4");
  if (family === 0 || !ipaddr.IPv6.isValid(address)) return true;
  return refusedV6.check(address, "ipv6") || embeddedIPv4(address).some((inner) => refusedV4.check(inner, "ipv4"));
}

export const ADDRESS_REFUSED = "Endereço não permitido para webhooks";

/** The host of a URL as an address or a name (`[::1]` → `::1`). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

/** Why `url` may not receive webhooks under `policy` (resolving its host now), or null when it may. */
export async function urlProblem(url: URL, policy: UrlPolicy): Promise<string | null> {
  if (url.protocol !== "https:" && (policy.httpsOnly || url.protocol !== "http:")) return policy.httpsOnly ? "A URL deve usar https" : "URL inválida";
  if (!policy.refusePrivateAddresses) return null;
  const host = hostOf(url);
  if (isIP(host)) return isRefusedAddress(host) ? ADDRESS_REFUSED : null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    return "Não foi possível resolver o endereço da URL";
  }
  return addresses.length === 0 || addresses.some((entry) => isRefusedAddress(entry.address)) ? ADDRESS_REFUSED : null;
}

/**
 * A DNS lookup for outgoing connections that refuses a name resolving to a refused address: the connection goes to
 * exactly the addresses checked here (resolved once), so a name cannot resolve to a public address when registered
 * and checked, then to a private one when connected.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  resolveAll(hostname).then(
    (addresses) => {
      const allowed = addresses.filter((entry) => !isRefusedAddress(entry.address));
      if (allowed.length === 0 || allowed.length < addresses.length) {
        callback(Object.assign(new Error(ADDRESS_REFUSED), { code: "EADDRREFUSED" }), "", 4);
      } else if (options.all) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
      } else {
        callback(null, allowed[0].address, allowed[0].family);
      }
    },
    (error: NodeJS.ErrnoException) => callback(error, "", 4),
  );
};

/** True when the URL's host is an address literal refused by the policy (a literal is connected to without a lookup). */
export function isRefusedLiteral(url: URL): boolean {
  const host = hostOf(url);
  return isIP(host) !== 0 && isRefusedAddress(host);
}
