CREATE UNLOGGED TABLE "read_positions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"lsn" "pg_lsn" NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL
);
