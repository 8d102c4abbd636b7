CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" varchar(255) NOT NULL,
	"user_id" integer,
	"state" varchar(8) NOT NULL,
	"owner" uuid,
	"lease_until" timestamp (3) with time zone,
	"fingerprint" varchar(64),
	"status" integer,
	"content_type" text,
	"location" text,
	"body" "bytea",
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key"),
	CONSTRAINT "idempotency_keys_state_check" CHECK ("idempotency_keys"."state" in ('RUNNING', 'DONE'))
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_user_idx" ON "idempotency_keys" USING btree ("user_id");