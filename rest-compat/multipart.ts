import busboy from "busboy";
import type { Request } from "express";
import type { z } from "zod";
import { AppError, validationError } from "../src/platform/errors.js";
import { MAX_IMAGE_BYTES, type UploadedFile } from "../src/platform/storage/image-storage.js";
import { ensureJsonNesting, parseInput } from "../src/platform/validation.js";

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

const INVALID_MULTIPART = "Requisição multipart inválida";

/**
 * Reads a multipart/form-data request into memory. A file part stops being read past the 5 MB image
 * limit (it is then marked truncated and never written anywhere).
 */
export function readMultipart(req: Request): Promise<MultipartBody> {
  if (!req.is("multipart/form-data")) return Promise.reject(new AppError(400, INVALID_MULTIPART));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy marks a file truncated once it *reaches* fileSize, so one byte more lets exactly 5 MB through.
        limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 2, fields: 20, parts: 22, fieldSize: 1024 * 1024 },
      });
    } catch {
      return reject(new AppError(400, INVALID_MULTIPART));
    }
    const body: MultipartBody = { fields: {}, files: {} };
    let failed = false;
    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new AppError(413, "Requisição muito grande"));
      body.fields[name] = value;
    });
    parser.on("file", (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      // A body cut off inside a file part destroys the file stream with an error; unheard, it would crash the process.
      stream.on("error", () => fail(new AppError(400, INVALID_MULTIPART)));
      stream.on("close", () => {
        body.files[name] = { bytes: Buffer.concat(chunks), truncated: (stream as unknown as { truncated: boolean }).truncated };
      });
    });
    parser.on("filesLimit", () => fail(new AppError(400, INVALID_MULTIPART)));
    parser.on("fieldsLimit", () => fail(new AppError(400, INVALID_MULTIPART)));
    parser.on("partsLimit", () => fail(new AppError(400, INVALID_MULTIPART)));
    parser.on("error", () => fail(new AppError(400, INVALID_MULTIPART)));
    parser.on("close", () => {
      if (!failed) resolve(body);
    });
    // A client that goes away mid-upload: give up instead of waiting for parts that will never come.
    req.on("aborted", () => fail(new AppError(400, "Requisição interrompida")));
    req.pipe(parser);
  });
}

/**
 * The JSON object of part `name`, as `schema` reads it: sent as a text field, or as a file part (how clients that append
 * a Blob send it). Missing, not JSON or not an object, it is a validation error on that part.
 */
export function parseJsonPart<S extends z.ZodType>(body: MultipartBody, name: string, schema: S): z.output<S> {
  const part = body.fields[name] ?? body.files[name]?.bytes.toString("utf8");
  if (part === undefined) throw validationError([{ field: name, message: "Campo obrigatório" }]);
  ensureJsonNesting(part);
  let json: unknown;
  try {
    json = JSON.parse(part);
  } catch {
    throw validationError([{ field: name, message: "JSON inválido" }]);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw validationError([{ field: name, message: "Deve ser um objeto JSON" }]);
  return parseInput(schema, json);
}
