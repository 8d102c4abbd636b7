-- Subscriptions that got a second payable PIX charge (two instances asking a gateway that made one per request):
-- the first charge stays the one to pay; the later ones, and their invoices, are canceled (the charges at the
-- gateway too, by the gateway-follow-ups job).
WITH "duplicates" AS (
  UPDATE "pix_transactions" p
  SET "status" = 'CANCELLED', "gateway_cancel_due" = true
  WHERE p."status" = 'PENDING' AND EXISTS (
    SELECT 1 FROM "pix_transactions" earlier
    WHERE earlier."subscription_id" = p."subscription_id" AND earlier."status" = 'PENDING'
      AND (earlier."created_at", earlier."id") < (p."created_at", p."id")
  )
  RETURNING p."invoice_id"
)
UPDATE "invoices" SET "status" = 'CANCELED', "updated_at" = now()
WHERE "status" = 'PENDING' AND "id" IN (SELECT "invoice_id" FROM "duplicates");--> statement-breakpoint
CREATE UNIQUE INDEX "pix_transactions_one_pending_per_subscription" ON "pix_transactions" USING btree ("subscription_id") WHERE "pix_transactions"."status" = 'PENDING';
