CREATE TABLE "completed_training_weeks" (
	"user_id" integer NOT NULL,
	"training_id" integer NOT NULL,
	"block" integer NOT NULL,
	"weeks" bigint NOT NULL,
	CONSTRAINT "completed_training_weeks_user_id_training_id_block_pk" PRIMARY KEY("user_id","training_id","block")
);
--> statement-breakpoint
ALTER TABLE "completed_training_weeks" ADD CONSTRAINT "completed_training_weeks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;