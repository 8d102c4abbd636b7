import type { FileUpload } from "graphql-upload-minimal";
import { GraphQLUpload } from "graphql-upload-minimal";
import { MAX_IMAGE_BYTES, type UploadedFile } from "../platform/storage/file-storage.js";

export { GraphQLUpload };
export type { FileUpload };

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
