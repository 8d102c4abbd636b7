DROP INDEX "exercise_executions_user_exercise_time_idx";--> statement-breakpoint
DROP INDEX "exercise_executions_training_execution_idx";--> statement-breakpoint
DROP INDEX "exercise_executions_user_exercise_weight_idx";--> statement-breakpoint
DROP INDEX "training_executions_user_start_idx";--> statement-breakpoint
DROP INDEX "training_executions_training_user_start_idx";--> statement-breakpoint
CREATE INDEX "exercise_executions_user_exercise_progress_idx" ON "exercise_executions" USING btree ("user_id","exercise_id","executed_at","max_weight","best_one_rep_max","volume","completed_sets","total_reps");--> statement-breakpoint
CREATE INDEX "exercise_executions_training_execution_cover_idx" ON "exercise_executions" USING btree ("training_execution_id","exercise_id","volume","completed_sets","total_reps","max_weight","weight_sum","weighted_sets","exercise_name");--> statement-breakpoint
CREATE INDEX "exercise_executions_user_exercise_record_idx" ON "exercise_executions" USING btree ("user_id","exercise_id","max_weight" DESC NULLS LAST,"executed_at","id");--> statement-breakpoint
CREATE INDEX "exercise_executions_user_exercise_one_rep_max_idx" ON "exercise_executions" USING btree ("user_id","exercise_id","best_one_rep_max");--> statement-breakpoint
CREATE INDEX "exercise_executions_user_standalone_idx" ON "exercise_executions" USING btree ("user_id","executed_at","duration_seconds") WHERE "exercise_executions"."training_execution_id" is null;--> statement-breakpoint
CREATE INDEX "training_executions_user_start_cover_idx" ON "training_executions" USING btree ("user_id","start_time","completed","duration_seconds");--> statement-breakpoint
CREATE INDEX "training_executions_training_user_start_cover_idx" ON "training_executions" USING btree ("training_id","user_id","start_time","id","duration_seconds","completed");