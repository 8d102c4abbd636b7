-- The plan catalogue of contract §8 (editable afterwards). Prices in integer cents.
INSERT INTO "subscription_plans" ("name", "description", "user_type", "price_cents", "currency", "interval", "features", "max_students", "subscription_type", "active") VALUES
  ('Mensal', 'Acesso premium com cobrança mensal', 'ALUNO', 4990, 'BRL', 'MONTHLY', '["Treinos ilimitados", "Estatísticas de progresso", "Recordes pessoais"]'::jsonb, NULL, 'PREMIUM_MENSAL', true),
  ('Trimestral', 'Acesso premium com cobrança trimestral', 'ALUNO', 12990, 'BRL', 'QUARTERLY', '["Treinos ilimitados", "Estatísticas de progresso", "Recordes pessoais"]'::jsonb, NULL, 'PREMIUM_TRIMESTRAL', true),
  ('Semestral', 'Acesso premium com cobrança semestral', 'ALUNO', 23990, 'BRL', 'SEMIANNUAL', '["Treinos ilimitados", "Estatísticas de progresso", "Recordes pessoais"]'::jsonb, NULL, 'PREMIUM_SEMESTRAL', true),
  ('Anual', 'Acesso premium com cobrança anual', 'ALUNO', 44990, 'BRL', 'ANNUAL', '["Treinos ilimitados", "Estatísticas de progresso", "Recordes pessoais"]'::jsonb, NULL, 'PREMIUM_ANUAL', true),
  ('Básico', 'Para personal trainers começando: até 5 alunos', 'PERSONAL', 9990, 'BRL', 'MONTHLY', '["Até 5 alunos", "Planos de treino", "Acompanhamento de execuções"]'::jsonb, 5, 'PERSONAL_BASIC', true),
  ('Intermediário', 'Para personal trainers em crescimento: até 15 alunos', 'PERSONAL', 19990, 'BRL', 'MONTHLY', '["Até 15 alunos", "Planos de treino", "Acompanhamento de execuções"]'::jsonb, 15, 'PERSONAL_INTERMEDIARIO', true),
  ('Avançado', 'Para estúdios: até 30 alunos', 'PERSONAL', 29990, 'BRL', 'MONTHLY', '["Até 30 alunos", "Planos de treino", "Acompanhamento de execuções"]'::jsonb, 30, 'PERSONAL_AVANCADO', true),
  ('Ilimitado', 'Alunos ilimitados', 'PERSONAL', 39990, 'BRL', 'MONTHLY', '["Alunos ilimitados", "Planos de treino", "Acompanhamento de execuções"]'::jsonb, NULL, 'PERSONAL_ILIMITADO', true);
