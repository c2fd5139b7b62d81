-- Contexts made before the offline default changed stored no model (null meant "the default", then
-- the sentence encoder). Their vectors are the sentence encoder's: name it, so they keep matching.
UPDATE "contexts" SET "embedding_model" = 'offline/universal-sentence-encoder-lite' WHERE "embedding_model" IS NULL;
