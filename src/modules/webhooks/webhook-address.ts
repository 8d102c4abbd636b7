import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Where webhooks may go (contract §14.1). In production: https only, and no host that resolves to an address inside
 * the service's own network (loopback, private, link-local, CGNAT, unique-local, cloud metadata…), unless
 * WEBHOOKS_ALLOW_PRIVATE_URLS=true. Elsewhere (development, tests) any http(s) URL.
 */
export interface UrlPolicy {
  httpsOnly: boolean;
  refusePrivateAddresses: boolean;
}

// One list per family: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules, and ::ffff:0:0/96
// below must refuse only the mapped forms.
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
  ["::ffff:0:0", 96], // IPv4-mapped: would reach the IPv4 address inside
  ["64:ff9b::", 96], // NAT64: likewise
  ["2002::", 16], // 6to4: likewise
  ["100::", 64], // discard
  ["fc00::", 7], // unique-local (AWS metadata fd00:ec2::254 among them)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  refusedV6.addSubnet(network, prefix, "ipv6");
}

/** True for an address no webhook may reach under a policy that refuses private addresses. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? refusedV4.check(address, "ipv4") : refusedV6.check(address, "ipv6");
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
