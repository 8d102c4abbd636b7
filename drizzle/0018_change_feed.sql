CREATE TABLE "sync_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"user_id" integer NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_changes_entity_check" CHECK ("sync_changes"."entity" in ('profile', 'exercise', 'training', 'trainingPlan', 'planAssignment', 'link', 'invite', 'trainingExecution', 'exerciseExecution', 'subscription'))
);
--> statement-breakpoint
ALTER TABLE "sync_changes" ADD CONSTRAINT "sync_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_changes_user_position_idx" ON "sync_changes" USING btree ("user_id","xid","id");--> statement-breakpoint
CREATE INDEX "sync_changes_changed_at_idx" ON "sync_changes" USING btree ("changed_at");