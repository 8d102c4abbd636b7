import { invoiceSchema, paymentSchema } from "../src/modules/billing/billing.dto.js";
import { billingHistoryPaging, invoiceFilter, paymentFilter } from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import { idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

const BILLING_HISTORY = "Payments and invoices";

/** What was charged: payments, and invoices as JSON and as PDF. */
export function addBillingHistoryRoutes(routes: DocumentedRouter, services: Services): void {
  const { billingHistory } = services;

  routes.add(
    {
      method: "get",
      path: "/payments",
      operationId: "listPayments",
      query: paymentFilter,
      paging: billingHistoryPaging,
      response: pageOf(paymentSchema),
      tag: BILLING_HISTORY,
      summary: "The caller's payments (administrators: all)",
      description: "A user sees their own payments; an administrator sees everyone's, or one user's with `userId`. Newest first unless `sort` says otherwise.",
      auth: "required",
      scope: "billing:read",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await billingHistory.listPayments(await userOf(services, req), listReader(req, billingHistoryPaging, paymentFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices",
      operationId: "listInvoices",
      query: invoiceFilter,
      paging: billingHistoryPaging,
      response: pageOf(invoiceSchema),
      tag: BILLING_HISTORY,
      summary: "The caller's invoices (administrators: all)",
      description: "A user sees their own invoices; an administrator sees everyone's, or one user's with `userId`. Newest first unless `sort` says otherwise.",
      auth: "required",
      scope: "billing:read",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await billingHistory.listInvoices(await userOf(services, req), listReader(req, billingHistoryPaging, invoiceFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices/:id",
      operationId: "getInvoice",
      response: invoiceSchema,
      tag: BILLING_HISTORY,
      summary: "One invoice",
      description: "The owner's, or any for an administrator (else 403 `Acesso negado`); 404 `Fatura não encontrada`.",
      auth: "required",
      scope: "billing:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await billingHistory.getInvoice(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices/:id/download",
      operationId: "downloadInvoice",
      response: {
        mediaType: "application/pdf",
        description: "the invoice as PDF",
        headers: { "Content-Disposition": 'attachment; filename="<the invoice\'s file name>"' },
      },
      tag: BILLING_HISTORY,
      summary: "The invoice as PDF",
      description:
        "The owner's, or any for an administrator. A PDF file named `fatura-<id>.pdf`, giving the invoice's id, the user, the plan, the amount (as `R$ 49,90`), its status and its dates.",
      auth: "required",
      scope: "billing:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      const { fileName, pdf } = await billingHistory.invoicePdf(actor, idParam(req));
      res.setHeader("Content-Type", "application/pdf");
      res.setHeader("Content-Disposition", `attachment; filename="${fileName}"`);
      res.send(pdf);
    },
  );
  routes.add(
    {
      method: "get",
      path: "/payments/:id",
      operationId: "getPayment",
      response: paymentSchema,
      tag: BILLING_HISTORY,
      summary: "One payment",
      description: "The owner's, or any for an administrator (else 403 `Acesso negado`); 404 `Pagamento não encontrado`.",
      auth: "required",
      scope: "billing:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await billingHistory.getPayment(actor, idParam(req)));
    },
  );
}
