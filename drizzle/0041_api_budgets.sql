CREATE TABLE "api_budgets" (
	"key" text PRIMARY KEY NOT NULL,
	"quarter_start" timestamp (3) with time zone,
	"quarter_count" integer DEFAULT 0 NOT NULL,
	"day_start" timestamp (3) with time zone,
	"day_count" integer DEFAULT 0 NOT NULL,
	"points" double precision,
	"points_at" timestamp (3) with time zone
);
