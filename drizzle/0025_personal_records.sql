CREATE TABLE "personal_records" (
	"user_id" integer NOT NULL,
	"exercise_id" integer NOT NULL,
	"exercise_execution_id" integer NOT NULL,
	"exercise_name" varchar(120) NOT NULL,
	"max_weight" numeric(6, 2) NOT NULL,
	"executed_at" timestamp (3) with time zone NOT NULL,
	"best_one_rep_max" numeric(10, 2),
	CONSTRAINT "personal_records_user_id_exercise_id_pk" PRIMARY KEY("user_id","exercise_id")
);
--> statement-breakpoint
DROP INDEX "exercise_executions_user_exercise_record_idx";--> statement-breakpoint
DROP INDEX "exercise_executions_user_exercise_one_rep_max_idx";--> statement-breakpoint
ALTER TABLE "personal_records" ADD CONSTRAINT "personal_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_records" ADD CONSTRAINT "personal_records_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;