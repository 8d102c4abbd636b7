ALTER TABLE "invoices" DROP CONSTRAINT "invoices_status_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_id" text;--> statement-breakpoint
CREATE INDEX "payments_unsettled_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" in ('PENDING', 'REFUND_DUE');--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('PENDING', 'PAID', 'OVERDUE', 'CANCELED', 'REFUNDED'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('PENDING', 'COMPLETED', 'FAILED', 'REFUND_DUE', 'REFUNDED'));