CREATE TABLE "developer_app_documents" (
	"app_id" integer NOT NULL,
	"hash" text NOT NULL,
	"document" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "developer_app_documents_app_id_hash_pk" PRIMARY KEY("app_id","hash")
);
--> statement-breakpoint
ALTER TABLE "developer_apps" ADD COLUMN "trusted_documents_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "developer_app_documents" ADD CONSTRAINT "developer_app_documents_app_id_developer_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."developer_apps"("id") ON DELETE cascade ON UPDATE no action;