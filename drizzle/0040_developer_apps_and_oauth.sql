CREATE TABLE "developer_apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"name" varchar(100) NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"confidential" boolean NOT NULL,
	"sealed_secret" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_payloads" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"account_id" integer,
	"client_id" text,
	"expires_at" timestamp (3) with time zone,
	"consumed_at" timestamp (3) with time zone,
	"last_used_at" timestamp (3) with time zone,
	CONSTRAINT "oauth_payloads_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
ALTER TABLE "developer_apps" ADD CONSTRAINT "developer_apps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "developer_apps_client_id_key" ON "developer_apps" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "developer_apps_user_idx" ON "developer_apps" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "oauth_payloads_grant_idx" ON "oauth_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_payloads_uid_idx" ON "oauth_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_payloads_account_idx" ON "oauth_payloads" USING btree ("account_id","client_id");--> statement-breakpoint
CREATE INDEX "oauth_payloads_expires_idx" ON "oauth_payloads" USING btree ("expires_at");