import { z } from "zod";
import { requireOwnerOrAdmin } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { dayRange } from "../../platform/dates.js";
import { notFound } from "../../platform/errors.js";
import { toPage, type Page, type PageRequest } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { UserService } from "../users/user.service.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import {
  invoiceDownloadUrl,
  toInvoiceDto,
  toPaymentDto,
  type InvoiceDto,
  type InvoiceRow,
  type PaymentDto,
  type PaymentRow,
  paymentSchema,
  invoiceSchema,
} from "./billing.dto.js";
import type { InvoiceListQuery, PaymentListQuery } from "./billing.inputs.js";
import { invoicePdfFileName, renderInvoicePdf } from "./invoice-pdf.js";
import { invoiceRepository } from "./invoice.repository.js";
import { paymentRepository } from "./payment.repository.js";
import type { BillingHistoryFilter } from "./billing-history-listing.js";
import { subscriptionRepository } from "./subscription.repository.js";

const PAYMENT_NOT_FOUND = "Pagamento não encontrado";
const INVOICE_NOT_FOUND = "Fatura não encontrada";

/** What the data export holds of this module (contract §15). */
const billingHistoryExport = z.object({
  payments: z.array(paymentSchema).describe("The user's payments"),
  invoices: z.array(invoiceSchema).describe("The user's invoices"),
});

/** Payments and invoices: each user reaches their own, administrators all. */
export class BillingHistoryService {
  constructor(private readonly deps: { db: Db; publicBaseUrl: string; users: UserService }) {}

  async listPayments(actor: Actor, readQuery: InputReader<PaymentListQuery>): Promise<Page<PaymentDto>> {
    const caller = requireUser(actor);
    const { filter, request } = this.listingFor(caller, readQuery());
    const { rows, total } = await paymentRepository.listPayments(this.deps.db, filter, request);
    return toPage(await this.paymentDtos(rows), total, request);
  }

  async getPayment(actor: Actor, id: number): Promise<PaymentDto> {
    const caller = requireUser(actor);
    const row = await paymentRepository.findPayment(this.deps.db, id);
    if (!row) throw notFound(PAYMENT_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.userId);
    return (await this.paymentDtos([row]))[0];
  }

  async listInvoices(actor: Actor, readQuery: InputReader<InvoiceListQuery>): Promise<Page<InvoiceDto>> {
    const caller = requireUser(actor);
    const { filter, request } = this.listingFor(caller, readQuery());
    const { rows, total } = await invoiceRepository.listInvoices(this.deps.db, filter, request);
    return toPage(await this.invoiceDtos(rows), total, request);
  }

  async getInvoice(actor: Actor, id: number): Promise<InvoiceDto> {
    const caller = requireUser(actor);
    return (await this.invoiceDtos([await this.loadInvoice(caller, id)]))[0];
  }

  /** The invoice as a PDF named `fatura-<id>.pdf`. */
  async invoicePdf(actor: Actor, id: number): Promise<{ fileName: string; pdf: Buffer }> {
    const caller = requireUser(actor);
    const invoice = await this.loadInvoice(caller, id);
    const [dto] = await this.invoiceDtos([invoice]);
    const user = await this.deps.users.findById(invoice.userId);
    const payment = invoice.paymentId ? await paymentRepository.findPayment(this.deps.db, invoice.paymentId) : null;
    const pdf = await renderInvoicePdf({
      id: invoice.id,
      issuedAt: invoice.createdAt,
      dueDate: invoice.dueDate,
      paidAt: invoice.paidAt,
      status: invoice.status,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      planName: dto.planName ?? "",
      user: { name: user?.name ?? "", email: user?.email ?? "" },
      paymentMethod: payment?.paymentMethod ?? null,
      transactionId: payment?.transactionId ?? null,
    });
    return { fileName: invoicePdfFileName(invoice.id), pdf };
  }

  private listingFor(caller: UserActor, { filter, page }: PaymentListQuery | InvoiceListQuery): { filter: BillingHistoryFilter; request: PageRequest } {
    // Administrators see everyone's (optionally one user's); others only their own.
    const userId = caller.isAdmin ? filter.userId : caller.id;
    return { filter: { userId, status: filter.status, ...dayRange(filter.startDate, filter.endDate) }, request: page };
  }

  private async loadInvoice(caller: UserActor, id: number): Promise<InvoiceRow> {
    const row = await invoiceRepository.findInvoice(this.deps.db, id);
    if (!row) throw notFound(INVOICE_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.userId);
    return row;
  }

  /** A user's payments and invoices, as the API shows them (contract §15); erasure keeps them (fiscal retention). */
  readonly personalData: PersonalDataHolder<typeof billingHistoryExport> = {
    exportSections: billingHistoryExport,
    exportPersonalData: async (db, userId) => {
      const [payments, invoices] = await Promise.all([paymentRepository.paymentsOfUser(db, userId), invoiceRepository.invoicesOfUser(db, userId)]);
      return { payments: await this.paymentDtos(payments, db), invoices: await this.invoiceDtos(invoices, db) };
    },
    // Kept under the anonymized name: the users module renames the account.
    erasePersonalData: async () => undefined,
  };

  private async names(rows: { userId: number; subscriptionId: number | null }[], db: Db) {
    const userIds = [...new Set(rows.map((row) => row.userId))];
    const subscriptionIds = [...new Set(rows.map((row) => row.subscriptionId).filter((id): id is number => id !== null))];
    const [users, planNames] = await Promise.all([this.deps.users.findByIds(userIds, db), subscriptionRepository.planNamesBySubscription(db, subscriptionIds)]);
    const userNames = new Map(users.map((user) => [user.id, user.name]));
    return { userName: (id: number) => userNames.get(id) ?? "", planName: (id: number | null) => (id === null ? null : (planNames.get(id) ?? null)) };
  }

  private invoiceUrl(id: number) {
    return invoiceDownloadUrl(this.deps.publicBaseUrl, id);
  }

  private async paymentDtos(rows: PaymentRow[], db: Db = this.deps.db): Promise<PaymentDto[]> {
    const names = await this.names(rows, db);
    const invoiceIds = await invoiceRepository.invoiceIdsByPayment(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      toPaymentDto(row, {
        userName: names.userName(row.userId),
        planName: names.planName(row.subscriptionId),
        invoiceUrl: invoiceIds.has(row.id) ? this.invoiceUrl(invoiceIds.get(row.id)!) : null,
      }),
    );
  }

  private async invoiceDtos(rows: InvoiceRow[], db: Db = this.deps.db): Promise<InvoiceDto[]> {
    const names = await this.names(rows, db);
    return rows.map((row) =>
      toInvoiceDto(row, { userName: names.userName(row.userId), planName: names.planName(row.subscriptionId), invoiceUrl: this.invoiceUrl(row.id) }),
    );
  }
}
