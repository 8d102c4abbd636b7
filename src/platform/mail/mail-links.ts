/** The paths of this service's own pages that e-mail links open (rest-compat/mail-pages.ts serves them). */
export const MAIL_PAGES = { confirmEmail: "/confirm-email", resetPassword: "/reset-password", invites: "/invites" } as const;

/**
 * Where the links of e-mails lead (contract §9, §11): under WEB_APP_URL, which defaults to PUBLIC_BASE_URL, where
 * this service answers them with its own pages. A configured web app keeps the links it has always had.
 */
export class MailLinks {
  constructor(
    private readonly webAppUrl: string,
    private readonly webAppConfigured: boolean,
  ) {}

  confirmEmail(token: string): string {
    return `${this.webAppUrl}${MAIL_PAGES.confirmEmail}?token=${token}`;
  }

  resetPassword(token: string): string {
    return `${this.webAppUrl}${MAIL_PAGES.resetPassword}?token=${token}`;
  }

  /** A web app lists the student's invites on its home page; this service's own page answers the one invite. */
  inviteAnswer(inviteId: number): string {
    return this.webAppConfigured ? this.webAppUrl : `${this.webAppUrl}${MAIL_PAGES.invites}/${inviteId}`;
  }
}
