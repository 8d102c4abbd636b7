ALTER TABLE "personal_records" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "personal_records" CASCADE;--> statement-breakpoint
CREATE INDEX "exercise_executions_user_exercise_weight_idx" ON "exercise_executions" USING btree ("user_id","exercise_id","max_weight","executed_at","id");