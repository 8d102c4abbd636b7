CREATE TABLE "exercises" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" varchar(2000) NOT NULL,
	"category" text NOT NULL,
	"image_url" text,
	"image_version" integer DEFAULT 0 NOT NULL,
	"created_by" integer NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"difficulty" text,
	"equipment" text,
	"video_url" varchar(2048),
	"instructions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"muscle_groups" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exercises_category_check" CHECK ("exercises"."category" in ('PEITO', 'COSTAS', 'OMBRO', 'BICEPS', 'TRICEPS', 'PERNAS', 'ABDOMEN', 'GLUTEOS', 'CARDIO', 'OUTRO')),
	CONSTRAINT "exercises_difficulty_check" CHECK ("exercises"."difficulty" in ('INICIANTE', 'INTERMEDIARIO', 'AVANCADO')),
	CONSTRAINT "exercises_equipment_check" CHECK ("exercises"."equipment" in ('BARRA', 'HALTERES', 'MAQUINA', 'CABO', 'PESO_CORPORAL', 'OUTRO'))
);
--> statement-breakpoint
CREATE TABLE "plan_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"personal_id" integer NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"assigned_at" timestamp (3) with time zone NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"notes" varchar(2000),
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_assignments_status_check" CHECK ("plan_assignments"."status" in ('PENDING', 'ACTIVE', 'COMPLETED', 'CANCELED'))
);
--> statement-breakpoint
CREATE TABLE "plan_trainings" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"training_id" integer NOT NULL,
	"day_of_week" text NOT NULL,
	"order" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "plan_trainings_day_check" CHECK ("plan_trainings"."day_of_week" in ('MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'))
);
--> statement-breakpoint
CREATE TABLE "training_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" varchar(2000) NOT NULL,
	"created_by" integer NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"difficulty" text,
	"goal" text,
	"duration_weeks" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "training_plans_difficulty_check" CHECK ("training_plans"."difficulty" in ('INICIANTE', 'INTERMEDIARIO', 'AVANCADO')),
	CONSTRAINT "training_plans_goal_check" CHECK ("training_plans"."goal" in ('HIPERTROFIA', 'EMAGRECIMENTO', 'RESISTENCIA', 'FORCA', 'OUTRO')),
	CONSTRAINT "training_plans_duration_check" CHECK ("training_plans"."duration_weeks" between 1 and 104)
);
--> statement-breakpoint
CREATE TABLE "training_exercises" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"exercise_id" integer NOT NULL,
	"position" integer NOT NULL,
	"sets" integer NOT NULL,
	"repetitions" integer,
	"weight_kg" numeric(6, 2),
	"rest_seconds" integer,
	"order" integer,
	"notes" varchar(2000),
	CONSTRAINT "training_exercises_sets_check" CHECK ("training_exercises"."sets" between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "trainings" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" varchar(2000),
	"created_by" integer NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exercises" ADD CONSTRAINT "exercises_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_assignments" ADD CONSTRAINT "plan_assignments_plan_id_training_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."training_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_assignments" ADD CONSTRAINT "plan_assignments_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_assignments" ADD CONSTRAINT "plan_assignments_personal_id_users_id_fk" FOREIGN KEY ("personal_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_trainings" ADD CONSTRAINT "plan_trainings_plan_id_training_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."training_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_trainings" ADD CONSTRAINT "plan_trainings_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plans" ADD CONSTRAINT "training_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_exercises" ADD CONSTRAINT "training_exercises_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_exercises" ADD CONSTRAINT "training_exercises_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exercises_created_by_idx" ON "exercises" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "exercises_public_category_idx" ON "exercises" USING btree ("is_public","category");--> statement-breakpoint
CREATE INDEX "plan_assignments_student_idx" ON "plan_assignments" USING btree ("student_id","status");--> statement-breakpoint
CREATE INDEX "plan_assignments_personal_idx" ON "plan_assignments" USING btree ("personal_id","assigned_at");--> statement-breakpoint
CREATE INDEX "plan_assignments_plan_idx" ON "plan_assignments" USING btree ("plan_id","status");--> statement-breakpoint
CREATE INDEX "plan_assignments_active_end_idx" ON "plan_assignments" USING btree ("end_date") WHERE "plan_assignments"."status" = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "plan_trainings_plan_idx" ON "plan_trainings" USING btree ("plan_id","position");--> statement-breakpoint
CREATE INDEX "plan_trainings_training_idx" ON "plan_trainings" USING btree ("training_id");--> statement-breakpoint
CREATE INDEX "training_plans_created_by_idx" ON "training_plans" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "training_plans_public_idx" ON "training_plans" USING btree ("is_public");--> statement-breakpoint
CREATE INDEX "training_exercises_training_idx" ON "training_exercises" USING btree ("training_id","position");--> statement-breakpoint
CREATE INDEX "training_exercises_exercise_idx" ON "training_exercises" USING btree ("exercise_id");--> statement-breakpoint
CREATE INDEX "trainings_created_by_idx" ON "trainings" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "trainings_public_idx" ON "trainings" USING btree ("is_public");