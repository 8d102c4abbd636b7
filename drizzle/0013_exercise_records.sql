CREATE TABLE "exercise_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"exercise_id" integer NOT NULL,
	"kind" varchar(24) NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"reps" integer,
	"weight" numeric(6, 2),
	"achieved_at" timestamp (3) with time zone NOT NULL,
	"exercise_execution_id" integer NOT NULL,
	"training_execution_id" integer,
	"set_index" integer,
	"previous_value" numeric(14, 2),
	"current" boolean NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exercise_records_kind_check" CHECK ("exercise_records"."kind" in ('MAX_WEIGHT', 'ESTIMATED_1RM', 'BEST_SET_VOLUME', 'BEST_SESSION_VOLUME', 'MAX_REPS', 'REP_MAX_3', 'REP_MAX_5', 'REP_MAX_10'))
);
--> statement-breakpoint
ALTER TABLE "exercise_records" ADD CONSTRAINT "exercise_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_records" ADD CONSTRAINT "exercise_records_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_records" ADD CONSTRAINT "exercise_records_exercise_execution_id_exercise_executions_id_fk" FOREIGN KEY ("exercise_execution_id") REFERENCES "public"."exercise_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exercise_records_current_idx" ON "exercise_records" USING btree ("user_id","exercise_id","kind") WHERE "exercise_records"."current";--> statement-breakpoint
CREATE INDEX "exercise_records_history_idx" ON "exercise_records" USING btree ("user_id","exercise_id","achieved_at","exercise_execution_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "exercise_records_kind_history_idx" ON "exercise_records" USING btree ("user_id","exercise_id","kind","achieved_at","exercise_execution_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "exercise_records_execution_idx" ON "exercise_records" USING btree ("exercise_execution_id");