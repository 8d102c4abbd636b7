import type { RequestHandler } from "express";
import { GraphQLScalarType } from "graphql";
import type { FileUpload } from "graphql-upload-minimal";
import { GraphQLUpload as UploadScalar, graphqlUploadExpress } from "graphql-upload-minimal";
import { AppError, INVALID_MULTIPART, REQUEST_TOO_LARGE } from "../platform/errors.js";
import { MAX_IMAGE_BYTES, type UploadedFile } from "../platform/storage/image-storage.js";
import { ensureNesting } from "../platform/validation.js";

export type { FileUpload };

/** At most this many files in one GraphQL multipart request. */
const MAX_FILES = 2;

/** graphql-upload-minimal's Upload scalar, described for clients. */
export const GraphQLUpload = new GraphQLScalarType({
  ...UploadScalar.toConfig(),
  description:
    "A file sent as a part of a GraphQL multipart request (the GraphQL multipart request specification), " +
    `at most ${MAX_FILES} files a request; the image fields take JPG, PNG or GIF of at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`,
});

/** Reads an uploaded file into memory, stopping past the 5 MB image limit (then marked truncated). */
export async function readUpload(upload: Promise<FileUpload> | FileUpload): Promise<UploadedFile> {
  const file = await upload;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file.createReadStream()) {
      size += (chunk as Buffer).length;
      if (size > MAX_IMAGE_BYTES) return { bytes: Buffer.alloc(0), truncated: true };
      chunks.push(chunk as Buffer);
    }
  } catch {
    // graphql-upload-minimal fails the stream when its own size limit is passed.
    return { bytes: Buffer.alloc(0), truncated: true };
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/**
 * The GraphQL multipart parser fails only on the client's request (no boundary, a body cut short, `operations` or
 * `map` missing or not JSON, too many files, an oversized field): 400 (413 past a size limit) in the error shape,
 * never a 500. The REST photo upload answers the same text. `operations` nested too deep is refused like a JSON body.
 */
export function graphqlMultipart(): RequestHandler {
  const parse = graphqlUploadExpress({ maxFileSize: MAX_IMAGE_BYTES + 1, maxFiles: MAX_FILES, maxFieldSize: 1024 * 1024 });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) {
        const tooLarge = (error as { status?: unknown }).status === 413;
        return next(tooLarge ? new AppError(413, REQUEST_TOO_LARGE) : new AppError(400, INVALID_MULTIPART));
      }
      try {
        ensureNesting(req.body);
      } catch (refused) {
        return next(refused);
      }
      next();
    });
  };
}
