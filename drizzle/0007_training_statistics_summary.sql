CREATE TABLE "training_exercise_months" (
	"user_id" integer NOT NULL,
	"training_id" integer NOT NULL,
	"exercise_id" integer NOT NULL,
	"month" date NOT NULL,
	"exercise_name" varchar(120) NOT NULL,
	"completed_sets" integer NOT NULL,
	"total_reps" integer NOT NULL,
	"volume" numeric(16, 2) NOT NULL,
	"max_weight" numeric(6, 2),
	"weight_sum" numeric(16, 2) NOT NULL,
	"weighted_sets" integer NOT NULL,
	CONSTRAINT "training_exercise_months_user_id_training_id_exercise_id_month_pk" PRIMARY KEY("user_id","training_id","exercise_id","month")
);
--> statement-breakpoint
DROP INDEX "training_executions_training_user_start_cover_idx";--> statement-breakpoint
ALTER TABLE "training_executions" ADD COLUMN "volume" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "training_exercise_months" ADD CONSTRAINT "training_exercise_months_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "training_executions_training_stats_idx" ON "training_executions" USING btree ("training_id","user_id","start_time","duration_seconds","completed","volume");