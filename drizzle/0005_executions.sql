CREATE TABLE "execution_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"exercise_execution_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position" integer NOT NULL,
	"repetitions" integer NOT NULL,
	"weight" numeric(6, 2),
	"completed" boolean NOT NULL,
	CONSTRAINT "execution_sets_repetitions_check" CHECK ("execution_sets"."repetitions" between 0 and 10000),
	CONSTRAINT "execution_sets_weight_check" CHECK ("execution_sets"."weight" between 0 and 2000)
);
--> statement-breakpoint
CREATE TABLE "exercise_executions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"exercise_id" integer,
	"exercise_name" varchar(120) NOT NULL,
	"training_id" integer,
	"training_name" varchar(120),
	"training_execution_id" integer,
	"executed_at" timestamp (3) with time zone NOT NULL,
	"duration_seconds" integer,
	"notes" varchar(2000),
	"personal_record" boolean DEFAULT false NOT NULL,
	"completed_sets" integer NOT NULL,
	"total_reps" integer NOT NULL,
	"volume" numeric(14, 2) NOT NULL,
	"max_weight" numeric(6, 2),
	"weight_sum" numeric(14, 2) NOT NULL,
	"weighted_sets" integer NOT NULL,
	"best_one_rep_max" numeric(10, 2),
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_executions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"training_id" integer,
	"training_name" varchar(120) NOT NULL,
	"start_time" timestamp (3) with time zone NOT NULL,
	"end_time" timestamp (3) with time zone NOT NULL,
	"duration_seconds" integer NOT NULL,
	"completed" boolean NOT NULL,
	"notes" varchar(2000),
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "training_executions_duration_check" CHECK ("training_executions"."duration_seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "execution_sets" ADD CONSTRAINT "execution_sets_exercise_execution_id_exercise_executions_id_fk" FOREIGN KEY ("exercise_execution_id") REFERENCES "public"."exercise_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_executions" ADD CONSTRAINT "exercise_executions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_executions" ADD CONSTRAINT "exercise_executions_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_executions" ADD CONSTRAINT "exercise_executions_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_executions" ADD CONSTRAINT "exercise_executions_training_execution_id_training_executions_id_fk" FOREIGN KEY ("training_execution_id") REFERENCES "public"."training_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_executions" ADD CONSTRAINT "training_executions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_executions" ADD CONSTRAINT "training_executions_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_sets_execution_idx" ON "execution_sets" USING btree ("exercise_execution_id","position");--> statement-breakpoint
CREATE INDEX "exercise_executions_user_exercise_time_idx" ON "exercise_executions" USING btree ("user_id","exercise_id","executed_at");--> statement-breakpoint
CREATE INDEX "exercise_executions_user_time_idx" ON "exercise_executions" USING btree ("user_id","executed_at");--> statement-breakpoint
CREATE INDEX "exercise_executions_training_execution_idx" ON "exercise_executions" USING btree ("training_execution_id");--> statement-breakpoint
CREATE INDEX "exercise_executions_user_exercise_weight_idx" ON "exercise_executions" USING btree ("user_id","exercise_id","max_weight");--> statement-breakpoint
CREATE INDEX "training_executions_user_start_idx" ON "training_executions" USING btree ("user_id","start_time");--> statement-breakpoint
CREATE INDEX "training_executions_training_user_start_idx" ON "training_executions" USING btree ("training_id","user_id","start_time");