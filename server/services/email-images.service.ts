import { randomBytes } from 'node:crypto';
import { TEMPLATE_LIMITS, type EmailImage } from '../../src/schemas/email-templates.js';
import type { Database } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import {
  createEmailImage,
  deleteEmailImage,
  findEmailImageFile,
  type EmailImageFile,
  type EmailImageRow,
} from '../repositories/email-images.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { imageTypeOf } from '../templates/image-types.js';
import { placeholderPng } from '../templates/placeholder-images.js';

/** Where uploaded images are served, under the installation's public address (no sign-in: email clients fetch them). */
export const EMAIL_IMAGE_PATH = '/email-images/';

/** A public id: 128 random bits, base64url (22 characters), so an image cannot be found without its link. */
const PUBLIC_ID = /^[A-Za-z0-9_-]{22}$/;

/** True for text shaped like a public id. */
export function isPublicImageId(value: string): boolean {
  return PUBLIC_ID.test(value);
}

/**
 * Images for emails (docs/templates.md): uploaded per company (PNG, JPEG, GIF, WebP by their bytes, 2 MB at
 * most), served at `${installationUrl}/email-images/<public id>`, deleted one by one (a template's deletion
 * keeps them: a sent email or another template may still show them).
 */
export function emailImagesService(db: Database, installationUrl: string) {
  const present = (row: EmailImageRow): EmailImage => ({
    id: row.public_id,
    url: `${installationUrl}${EMAIL_IMAGE_PATH}${row.public_id}`,
    content_type: row.content_type,
    byte_size: row.byte_size,
  });
  return {
    async upload(scope: WriteScope, bytes: Buffer): Promise<EmailImage> {
      if (bytes.length === 0) throw invalid({ file: fieldFailure('required', 'The image file is empty') });
      if (bytes.length > TEMPLATE_LIMITS.imageMaxBytes)
        throw new ApiError(
          413,
          'file_too_large',
          `The image is larger than ${TEMPLATE_LIMITS.imageMaxBytes} bytes`,
        );
      const contentType = imageTypeOf(bytes);
      if (!contentType)
        throw invalid({ file: fieldFailure('not_valid', 'The file is not a PNG, JPEG, GIF or WebP image') });
      const row = await db.tenant(scope.companyId, (sql) =>
        createEmailImage(sql, scope, {
          public_id: randomBytes(16).toString('base64url'),
          content_type: contentType,
          bytes,
        }),
      );
      return present(row);
    },
    async remove(scope: WriteScope, publicId: string): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteEmailImage(sql, scope, publicId))))
        throw notFound('Email image');
    },
    /** An image by its public id, whatever its company (the platform door: the id is the only key). */
    async file(publicId: string): Promise<EmailImageFile | null> {
      if (!isPublicImageId(publicId)) return null;
      return db.platform((sql) => findEmailImageFile(sql, publicId));
    },
    /** A gallery placeholder by its file name. */
    placeholder(name: string): EmailImageFile | null {
      const bytes = placeholderPng(name);
      return bytes ? { content_type: 'image/png', bytes } : null;
    },
  };
}

/** The image service's type, for routes. */
export type EmailImagesService = ReturnType<typeof emailImagesService>;
