CREATE TABLE "invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"personal_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"student_email" varchar(254) NOT NULL,
	"message" varchar(500),
	"status" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone,
	CONSTRAINT "invites_status_check" CHECK ("invites"."status" in ('PENDING', 'ACCEPTED', 'REJECTED', 'EXPIRED'))
);
--> statement-breakpoint
CREATE TABLE "personal_student_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"personal_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personal_student_links_status_check" CHECK ("personal_student_links"."status" in ('ACTIVE', 'INACTIVE'))
);
--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_personal_id_users_id_fk" FOREIGN KEY ("personal_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_student_links" ADD CONSTRAINT "personal_student_links_personal_id_users_id_fk" FOREIGN KEY ("personal_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_student_links" ADD CONSTRAINT "personal_student_links_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invites_one_pending_per_pair" ON "invites" USING btree ("personal_id","student_id") WHERE "invites"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "invites_personal_idx" ON "invites" USING btree ("personal_id","created_at");--> statement-breakpoint
CREATE INDEX "invites_student_idx" ON "invites" USING btree ("student_id","created_at");--> statement-breakpoint
CREATE INDEX "invites_pending_expiry_idx" ON "invites" USING btree ("expires_at") WHERE "invites"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "personal_student_links_pair_key" ON "personal_student_links" USING btree ("personal_id","student_id");--> statement-breakpoint
CREATE INDEX "personal_student_links_student_idx" ON "personal_student_links" USING btree ("student_id","status");