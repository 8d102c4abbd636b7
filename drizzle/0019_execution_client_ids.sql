ALTER TABLE "exercise_executions" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "training_executions" ADD COLUMN "client_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "exercise_executions_user_client_id_idx" ON "exercise_executions" USING btree ("user_id","client_id") WHERE "exercise_executions"."client_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "training_executions_user_client_id_idx" ON "training_executions" USING btree ("user_id","client_id") WHERE "training_executions"."client_id" is not null;