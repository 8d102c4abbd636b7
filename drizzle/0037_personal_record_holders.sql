CREATE TABLE "personal_record_holders" (
	"user_id" integer NOT NULL,
	"exercise_id" integer NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"exercise_execution_id" integer NOT NULL,
	"exercise_name" varchar(120) NOT NULL,
	"executed_at" timestamp (3) with time zone NOT NULL,
	"one_rep_max" numeric(14, 2),
	CONSTRAINT "personal_record_holders_user_id_exercise_id_pk" PRIMARY KEY("user_id","exercise_id")
);
--> statement-breakpoint
DROP INDEX "exercise_executions_user_exercise_weight_idx";--> statement-breakpoint
ALTER TABLE "personal_record_holders" ADD CONSTRAINT "personal_record_holders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_record_holders" ADD CONSTRAINT "personal_record_holders_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_record_holders" ADD CONSTRAINT "personal_record_holders_exercise_execution_id_exercise_executions_id_fk" FOREIGN KEY ("exercise_execution_id") REFERENCES "public"."exercise_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_record_holders_by_name_idx" ON "personal_record_holders" USING btree ("user_id","exercise_name","exercise_id");