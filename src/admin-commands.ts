import { z } from "zod";
import type { AdminGrant } from "./modules/users/auth.service.js";
import type { Services } from "./services.js";

/**
 * What `npm run admin` asks of the service that owns the embedded database's directory, over its admin socket: the
 * running service applies it through its own services, so its sessions know at once.
 */
export const adminCommand = z.object({ command: z.literal("grant"), email: z.string() });
export type AdminCommand = z.infer<typeof adminCommand>;

export function applyAdminCommand(services: Services, command: unknown): Promise<AdminGrant> {
  const { email } = adminCommand.parse(command);
  return services.auth.grantAdmin([email]);
}
